import BlazeCLISupport
import BlazeImageIO
import BlazeKit
import Foundation

/// `blaze hands` (docs/cli.md): MediaPipe Tasks-style hand landmarks on images, folders or a video.
struct HandsCommand: Sendable {
    static let usage = """
        usage: blaze hands [--num-hands N] [--model full|lite] [--min-detection F] [--min-presence F]
                           [--min-tracking F] [--mirrored] [--smooth] [--json] [--annotate PATH] [--jobs N]
                           [--progress|--no-progress] (INPUT... [--files-from FILE|-] | --video FILE|- | --camera DEVICE) [--max-frames N]
        """

    let options: HandLandmarkerOptions
    let settings: RunSettings

    init(arguments args: [String]) throws {
        let a = try Arguments(
            args,
            valued: commonValuedOptions.union([
                "--num-hands", "--model", "--min-detection", "--min-presence",
                "--min-tracking"
            ]),
            flags: commonFlags.union(["--mirrored", "--smooth"]))
        var o = HandLandmarkerOptions()
        if let n = a.value("--num-hands") {
            guard let v = Int(n), (1...HandLandmarkerOptions.maximumNumHands).contains(v) else {
                throw UsageError("--num-hands expects an integer in 1…\(HandLandmarkerOptions.maximumNumHands), got '\(n)'")
            }
            o.numHands = v
        }
        switch a.value("--model") ?? "full" {
        case "full": o.modelVariant = .full
        case "lite": o.modelVariant = .lite
        case let other: throw UsageError("--model expects full or lite, got '\(other)'")
        }
        o.minHandDetectionConfidence = try floatOption(a, "--min-detection", default: 0.5, range: 0...1)
        o.minHandPresenceConfidence = try floatOption(a, "--min-presence", default: 0.5, range: 0...1)
        o.minTrackingConfidence = try floatOption(a, "--min-tracking", default: 0.5, range: 0...1)
        o.mirrored = a.has("--mirrored")
        o.smoothLandmarks = a.has("--smooth")
        settings = try RunSettings(a)
        if settings.inputs.isVideo { o.runningMode = .video }
        if settings.jobs > 1 { o.numThreads = 1 }
        options = o
    }

    func run() throws -> Int32 {
        let landmarker = try HandLandmarker(options: options)
        return try runInputs(settings, command: "hands") { input, image, frame, draws in
            let result =
                try frame.map { try landmarker.detect(videoFrame: image, timestampInMilliseconds: $0.timestampInMilliseconds) }
                ?? landmarker.detect(image: image)
            return (output(input: input, image: image, frame: frame, result: result), draws ? try drawing(image: image, result: result) : nil)
        }
    }

    private func output(input: String, image: VisionImage, frame: VideoFrame?, result: HandLandmarkerResult) -> String {
        guard settings.json else {
            let where_ = frame.map { "\(input) frame \($0.index)" } ?? input
            let names = result.handedness.map { $0.first.map { "\($0.categoryName ?? "?") \(String(format: "%.2f", $0.score))" } ?? "?" }
            return "\(where_): \(result.landmarks.count) hand(s)" + (names.isEmpty ? "" : " [" + names.joined(separator: ", ") + "]")
        }
        let hands = result.landmarks.indices.map {
            JSON.object(
                Self.handFields(
                    handedness: result.handedness[$0], landmarks: result.landmarks[$0], world: result.worldLandmarks[$0],
                    trackingID: frame != nil && $0 < result.trackingIDs.count ? result.trackingIDs[$0] : nil))
        }
        var fields = imageFields(input: input, image: image, frame: frame)
        fields.append(("hands", .array(hands)))
        return JSON.object(fields).encoded
    }

    private func drawing(image: VisionImage, result: HandLandmarkerResult) throws -> Canvas {
        var canvas = try Canvas(image: image)
        for (i, hand) in result.landmarks.enumerated() {
            let label = result.handedness[i].first.map { "\($0.categoryName ?? "?") \(String(format: "%.2f", $0.score))" }
            Self.drawHand(hand, label: label, on: &canvas)
        }
        return canvas
    }

    /// One hand's JSON fields (docs/cli.md): handedness, landmarks, world landmarks, tracking ID.
    static func handFields(handedness: [ResultCategory], landmarks: [NormalizedLandmark], world: [Landmark], trackingID: Int?) -> [(String, JSON)] {
        var h: [(String, JSON)] = []
        if let top = handedness.first {
            h.append(
                (
                    "handedness",
                    .object([
                        ("categoryName", .string(top.categoryName ?? "")), ("score", .float(top.score)),
                        ("index", .int(top.index))
                    ])
                ))
        }
        h.append(("landmarks", .array(landmarks.map { .array([.float($0.x), .float($0.y), .float($0.z)]) })))
        h.append(("worldLandmarks", .array(world.map { .array([.float($0.x), .float($0.y), .float($0.z)]) })))
        if let trackingID { h.append(("trackingID", .int(trackingID))) }
        return h
    }

    /// Draws one hand's skeleton and, at the wrist, `label`.
    static func drawHand(_ hand: [NormalizedLandmark], label: String?, on canvas: inout Canvas) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let line = max(1.0, max(w, h) / 400)
        let points = hand.map { (x: Double($0.x) * w, y: Double($0.y) * h) }
        for c in HandLandmarker.handConnections where c.start < points.count && c.end < points.count {
            canvas.drawLine(from: points[c.start], to: points[c.end], color: .green, lineWidth: line)
        }
        for p in points { canvas.drawPoint(x: p.x, y: p.y, radius: line * 1.5, color: .red) }
        if let label, let wrist = points.first {
            canvas.drawText(label, x: Int(wrist.x), y: Int(wrist.y) + 4, color: .white, scale: Int(line), background: Color.black.withAlpha(160))
        }
    }
}
