import BlazeCLISupport
import BlazeConvert
import BlazeEngine
import BlazeImageIO
import BlazeKit
import Foundation

/// `blaze gestures` (docs/cli.md): MediaPipe Tasks-style gesture recognition on images, folders,
/// a video or a camera; the JSON of `blaze hands` plus each hand's gestures.
struct GesturesCommand: Sendable {
    static let usage = """
        usage: blaze gestures [--task PATH.task] [--num-hands N] [--min-detection F] [--min-presence F]
                              [--min-tracking F] [--canned-threshold F] [--custom-threshold F] [--allow NAME,...]
                              [--deny NAME,...] [--max-results N] [--mirrored] [--json] [--annotate PATH] [--jobs N]
                              [--progress|--no-progress] (INPUT... [--files-from FILE|-] | --video FILE|- | --camera DEVICE) [--max-frames N]
          --task: a MediaPipe gesture-recognizer bundle (converted on the fly); default: the bundled canned gestures
          --allow/--deny: labels of the bundle's custom classifier (of the canned one without a custom one)
        """

    let options: GestureRecognizerOptions
    let task: String?
    let settings: RunSettings
    let allow: [String], deny: [String]

    init(arguments args: [String]) throws {
        let a = try Arguments(
            args,
            valued: commonValuedOptions.union([
                "--task", "--num-hands", "--min-detection", "--min-presence", "--min-tracking", "--canned-threshold",
                "--custom-threshold", "--allow", "--deny", "--max-results"
            ]),
            flags: commonFlags.union(["--mirrored"]))
        var o = GestureRecognizerOptions()
        if let n = a.value("--num-hands") {
            guard let v = Int(n), (1...HandLandmarkerOptions.maximumNumHands).contains(v) else {
                throw UsageError("--num-hands expects an integer in 1…\(HandLandmarkerOptions.maximumNumHands), got '\(n)'")
            }
            o.numHands = v
        }
        o.minHandDetectionConfidence = try floatOption(a, "--min-detection", default: 0.5, range: 0...1)
        o.minHandPresenceConfidence = try floatOption(a, "--min-presence", default: 0.5, range: 0...1)
        o.minTrackingConfidence = try floatOption(a, "--min-tracking", default: 0.5, range: 0...1)
        if a.value("--canned-threshold") != nil {
            o.cannedGesturesClassifierOptions.scoreThreshold = try floatOption(a, "--canned-threshold", default: 0, range: 0...1)
        }
        if a.value("--custom-threshold") != nil {
            o.customGesturesClassifierOptions.scoreThreshold = try floatOption(a, "--custom-threshold", default: 0, range: 0...1)
        }
        if let n = a.value("--max-results") {
            guard let v = Int(n), v >= 1 else { throw UsageError("--max-results expects a positive integer, got '\(n)'") }
            o.cannedGesturesClassifierOptions.maxResults = v
            o.customGesturesClassifierOptions.maxResults = v
        }
        allow = Self.names(a.value("--allow"))
        deny = Self.names(a.value("--deny"))
        if !allow.isEmpty && !deny.isEmpty { throw UsageError("--allow and --deny are mutually exclusive") }
        o.mirrored = a.has("--mirrored")
        task = a.value("--task")
        settings = try RunSettings(a)
        if settings.inputs.isVideo { o.runningMode = .video }
        if settings.jobs > 1 { o.numThreads = 1 }
        options = o
    }

    private static func names(_ list: String?) -> [String] {
        list.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
    }

    /// Converts the bundle at `path` into `folder`; returns the file names written. A `.tflite`
    /// model or a bundle without the gesture nets (another task's) is refused by name here: the
    /// recognizer would only see a scratch folder.
    private static func convertBundle(_ path: String, into folder: URL) throws -> [String] {
        let bytes = [UInt8](try FileDescriptorIO.readFile(path: path, kind: "a .task bundle"))
        if ModelConversion.contentKind(bytes) == .tflite {
            throw UsageError("\(path) is one .tflite model, not a .task bundle: --task takes a gesture recognizer bundle")
        }
        let files = try ModelConversion.convertTaskBundle(
            bytes: bytes, bundleName: (path as NSString).lastPathComponent, outputDirectory: folder
        ).map(\.lastPathComponent)
        let missing = GestureModels.requiredFiles.filter { !files.contains($0) }
        guard missing.isEmpty else {
            let held = files.map { ($0 as NSString).deletingPathExtension }.sorted().joined(separator: ", ")
            let wanted = missing.map { ($0 as NSString).deletingPathExtension }.joined(separator: " and ")
            throw UsageError("\(path) is not a gesture recognizer bundle: it holds \(held), without \(wanted)")
        }
        return files
    }

    func run() throws -> Int32 {
        var options = self.options
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        if let task {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-gestures-\(getpid())-\(UUID().uuidString)")
            scratch = folder
            let files = try Self.convertBundle(task, into: folder)
            options.baseOptions.modelAssetPath = folder.path
            // The lists name the custom classifier's labels; a canned-only bundle has no labels.
            if files.contains(GestureModels.customFile) {
                options.customGesturesClassifierOptions.categoryAllowlist = allow
                options.customGesturesClassifierOptions.categoryDenylist = deny
            } else {
                options.cannedGesturesClassifierOptions.categoryAllowlist = allow
                options.cannedGesturesClassifierOptions.categoryDenylist = deny
            }
        } else {
            options.cannedGesturesClassifierOptions.categoryAllowlist = allow
            options.cannedGesturesClassifierOptions.categoryDenylist = deny
        }
        let recognizer = try GestureRecognizer(options: options)
        return try runInputs(settings, command: "gestures") { input, image, frame, draws in
            let result =
                try frame.map { try recognizer.recognize(videoFrame: image, timestampInMilliseconds: $0.timestampInMilliseconds) }
                ?? recognizer.recognize(image: image)
            return (output(input: input, image: image, frame: frame, result: result), draws ? try drawing(image: image, result: result) : nil)
        }
    }

    private func output(input: String, image: VisionImage, frame: VideoFrame?, result: GestureRecognizerResult) -> String {
        guard settings.json else {
            let where_ = frame.map { "\(input) frame \($0.index)" } ?? input
            let names = result.gestures.map { $0.first.map { "\(Self.name($0)) \(String(format: "%.2f", $0.score))" } ?? "-" }
            return "\(where_): \(result.landmarks.count) hand(s)" + (names.isEmpty ? "" : " [" + names.joined(separator: ", ") + "]")
        }
        let hands = result.landmarks.indices.map { i in
            var fields = HandsCommand.handFields(
                handedness: result.handedness[i], landmarks: result.landmarks[i], world: result.worldLandmarks[i],
                trackingID: frame != nil && i < result.trackingIDs.count ? result.trackingIDs[i] : nil)
            fields.append(
                ("gestures", .array(result.gestures[i].map { .object([("categoryName", .string($0.categoryName ?? "")), ("score", .float($0.score))]) })))
            return JSON.object(fields)
        }
        var fields = imageFields(input: input, image: image, frame: frame)
        fields.append(("hands", .array(hands)))
        return JSON.object(fields).encoded
    }

    /// A gesture's name for people: its label, or "(unnamed)" for a classifier without labels.
    private static func name(_ c: ResultCategory) -> String {
        (c.categoryName ?? "").isEmpty ? "(unnamed)" : c.categoryName!
    }

    private func drawing(image: VisionImage, result: GestureRecognizerResult) throws -> Canvas {
        var canvas = try Canvas(image: image)
        for (i, hand) in result.landmarks.enumerated() {
            let label = result.gestures[i].first.map { "\(Self.name($0)) \(String(format: "%.2f", $0.score))" } ?? "-"
            HandsCommand.drawHand(hand, label: label, on: &canvas)
        }
        return canvas
    }
}
