import BlazeCLISupport
import BlazeImageIO
import BlazeKit
import Foundation

/// `blaze face-landmarks` (docs/cli.md): MediaPipe Tasks-style face landmarks (478 points,
/// optionally 52 blendshapes and the transformation matrix) on images, folders, a video or a camera.
struct FaceLandmarksCommand: Sendable {
    static let usage = """
        usage: blaze face-landmarks [--num-faces N] [--min-detection F] [--min-presence F] [--min-tracking F]
                           [--blendshapes] [--matrices] [--json] [--annotate PATH] [--jobs N]
                           [--progress|--no-progress] (INPUT... [--files-from FILE|-] | --video FILE|- | --camera DEVICE) [--max-frames N]
        """

    let options: FaceLandmarkerOptions
    let settings: RunSettings

    init(arguments args: [String]) throws {
        let a = try Arguments(
            args, valued: commonValuedOptions.union(["--num-faces", "--min-detection", "--min-presence", "--min-tracking"]),
            flags: commonFlags.union(["--blendshapes", "--matrices"]))
        var o = FaceLandmarkerOptions()
        if let n = a.value("--num-faces") {
            guard let v = Int(n), (1...FaceLandmarkerOptions.maximumNumFaces).contains(v) else {
                throw UsageError("--num-faces expects an integer in 1…\(FaceLandmarkerOptions.maximumNumFaces), got '\(n)'")
            }
            o.numFaces = v
        }
        o.minFaceDetectionConfidence = try floatOption(a, "--min-detection", default: 0.5, range: 0...1)
        o.minFacePresenceConfidence = try floatOption(a, "--min-presence", default: 0.5, range: 0...1)
        o.minTrackingConfidence = try floatOption(a, "--min-tracking", default: 0.5, range: 0...1)
        o.outputFaceBlendshapes = a.has("--blendshapes")
        o.outputFacialTransformationMatrixes = a.has("--matrices")
        settings = try RunSettings(a)
        if settings.inputs.isVideo { o.runningMode = .video }
        if settings.jobs > 1 { o.numThreads = 1 }
        options = o
    }

    func run() throws -> Int32 {
        let landmarker = try FaceLandmarker(options: options)
        return try runInputs(settings, command: "face-landmarks") { input, image, frame, draws in
            let result =
                try frame.map { try landmarker.detect(videoFrame: image, timestampInMilliseconds: $0.timestampInMilliseconds) }
                ?? landmarker.detect(image: image)
            return (output(input: input, image: image, frame: frame, result: result), draws ? try drawing(image: image, result: result) : nil)
        }
    }

    private func output(input: String, image: VisionImage, frame: VideoFrame?, result: FaceLandmarkerResult) -> String {
        guard settings.json else {
            let where_ = frame.map { "\(input) frame \($0.index)" } ?? input
            var line = "\(where_): \(result.faceLandmarks.count) face(s)"
            for shapes in result.faceBlendshapes {
                let top = shapes.categories.filter { $0.index != 0 }.sorted { $0.score > $1.score }.prefix(3)
                line += " [" + top.map { "\($0.categoryName ?? "?") \(String(format: "%.2f", $0.score))" }.joined(separator: ", ") + "]"
            }
            return line
        }
        var faces: [JSON] = []
        for i in result.faceLandmarks.indices {
            var f: [(String, JSON)] = []
            f.append(("landmarks", .array(result.faceLandmarks[i].map { .array([.float($0.x), .float($0.y), .float($0.z)]) })))
            if i < result.faceBlendshapes.count {
                f.append(
                    (
                        "blendshapes",
                        .array(
                            result.faceBlendshapes[i].categories.map {
                                .object([("categoryName", .string($0.categoryName ?? "")), ("score", .float($0.score)), ("index", .int($0.index))])
                            })
                    ))
            }
            // A degenerate face has no matrix (NaNs in the library): the field is left out.
            if i < result.facialTransformationMatrixes.count, result.facialTransformationMatrixes[i].data.allSatisfy(\.isFinite) {
                f.append(("transformationMatrix", .array(result.facialTransformationMatrixes[i].data.map { .float($0) })))
            }
            if frame != nil, i < result.trackingIDs.count { f.append(("trackingID", .int(result.trackingIDs[i]))) }
            faces.append(.object(f))
        }
        var fields = imageFields(input: input, image: image, frame: frame)
        fields.append(("faces", .array(faces)))
        return JSON.object(fields).encoded
    }

    private func drawing(image: VisionImage, result: FaceLandmarkerResult) throws -> Canvas {
        var canvas = try Canvas(image: image)
        let w = Double(canvas.width), h = Double(canvas.height)
        let line = max(1.0, max(w, h) / 400)
        for (i, face) in result.faceLandmarks.enumerated() {
            let points = face.map { (x: Double($0.x) * w, y: Double($0.y) * h) }
            for p in points { canvas.drawPoint(x: p.x, y: p.y, radius: max(1, line / 2), color: .cyan) }
            for contour in FaceContourType.allCases {
                let closed = contour == .face || contour == .leftEye || contour == .rightEye
                canvas.drawPolyline(
                    contour.meshIndices.compactMap { $0 < points.count ? points[$0] : nil }, closed: closed,
                    color: .green, lineWidth: max(1, line / 2))
            }
            guard i < result.faceBlendshapes.count, let top = points.min(by: { $0.y < $1.y }) else { continue }
            let best = result.faceBlendshapes[i].categories.filter { $0.index != 0 }.sorted { $0.score > $1.score }.prefix(2)
            canvas.drawText(
                best.map { "\($0.categoryName ?? "?") \(String(format: "%.2f", $0.score))" }.joined(separator: " "),
                x: Int(points.map(\.x).min() ?? 0), y: max(0, Int(top.y) - 10 * Int(line)), color: .white,
                scale: Int(line), background: Color.black.withAlpha(160))
        }
        return canvas
    }
}
