import BlazeEngine
import Foundation

/// Recognizes hand gestures (MediaPipe Tasks' GestureRecognizer): the hand landmarker finds
/// hands and their landmarks, a gesture embedder turns each hand into 128 numbers, and the
/// bundle's classifiers name the gesture — a Model Maker bundle's custom classifier first, Google's
/// canned one when the custom classifier keeps no category or picks "None".
///
/// ```swift
/// var options = GestureRecognizerOptions()
/// options.baseOptions.modelAssetPath = "gestures"   // blaze-model convert bundle.task --output-dir gestures
/// options.numHands = 2
/// let recognizer = try GestureRecognizer(options: options)
/// let result = try recognizer.recognize(image: image)
/// for (gesture, hand) in zip(result.gestures, result.handedness) { … }
/// ```
///
/// Running modes: `.image` (`recognize(image:)`) and `.video`
/// (`recognize(videoFrame:timestampInMilliseconds:)`, with the hand landmarker's tracking).
/// Coordinates, handedness and tracking IDs are the hand landmarker's (upright image).
///
/// Thread safety: image-mode calls may run in parallel from many threads; video frames are
/// serialized, as with `HandLandmarker`.
public final class GestureRecognizer: Sendable {
    /// The options the recognizer was made with.
    public let options: GestureRecognizerOptions
    private let hands: HandLandmarker
    private let models: GestureModels
    private let sessions: Locked<[GestureSessions]>

    /// Creates a recognizer; loads and checks the nets.
    ///
    /// - Throws: `GestureRecognizerError` — invalid options (as `HandLandmarker`'s, and classifier
    ///   options: a non-finite threshold, allow and deny lists together or for a classifier without
    ///   labels), `.liveStream` (not available yet), a missing or unconverted `modelAssetPath`,
    ///   missing or wrong model files.
    public init(options: GestureRecognizerOptions) throws {
        guard options.runningMode != .liveStream else {
            throw GestureRecognizerError.invalidOption("GestureRecognizer runs in .image and .video mode; .liveStream is not available yet")
        }
        guard let path = options.baseOptions.modelAssetPath else {
            throw GestureRecognizerError.modelNotFound(
                "GestureRecognizer needs baseOptions.modelAssetPath: a folder holding a converted gesture bundle (`blaze-model convert bundle.task --output-dir DIR`)")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "task" || ext == "tflite" { throw GestureRecognizerError.unconvertedModel(path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GestureRecognizerError.modelNotFound("modelAssetPath must be a folder holding a converted gesture bundle, got \(path)")
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let models = try GestureModels(folder: folder)
        try options.cannedGesturesClassifierOptions.validate(labels: models.cannedHead.labels, what: "cannedGesturesClassifierOptions")
        try options.customGesturesClassifierOptions.validate(labels: models.customHead?.labels, what: "customGesturesClassifierOptions")
        // The bundle's hand nets when the folder has them, else the bundled ones (the same files).
        let handFolder = HandModels.folderHasModels(folder, variant: .full) ? path : nil
        hands = try HandLandmarker(options: options.handLandmarkerOptions(handModelFolder: handFolder))
        self.options = options
        self.models = models
        sessions = Locked([])
    }

    /// Ends the recognizer's use: later calls throw `GestureRecognizerError.closed`.
    public func close() { hands.close() }

    /// Image mode: the gestures of up to `numHands` hands in `image`.
    ///
    /// - Throws: `GestureRecognizerError.runningModeMismatch` outside `.image` mode, or image errors.
    public func recognize(image: VisionImage) throws -> GestureRecognizerResult {
        try checkMode(.image, method: "recognize(image:)")
        return try gestures(of: hands.detect(image: image), image: image)
    }

    /// Video mode: the next frame of a video. Timestamps must strictly increase.
    ///
    /// - Throws: `GestureRecognizerError.runningModeMismatch` outside `.video` mode,
    ///   `.nonIncreasingTimestamp`, or image errors.
    public func recognize(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> GestureRecognizerResult {
        try checkMode(.video, method: "recognize(videoFrame:timestampInMilliseconds:)")
        return try gestures(of: hands.detect(videoFrame: image, timestampInMilliseconds: timestamp), image: image)
    }

    private func checkMode(_ expected: RunningMode, method: String) throws {
        guard options.runningMode == expected else {
            throw GestureRecognizerError.runningModeMismatch(method: method, runningMode: options.runningMode)
        }
    }

    /// Classifies every hand of `found`.
    private func gestures(of found: HandLandmarkerResult, image: VisionImage) throws -> GestureRecognizerResult {
        let set = sessions.withLock { $0.popLast() } ?? models.makeSessions(threads: options.numThreads)
        // Sets made under a burst of concurrent calls beyond a few are dropped, as FaceSessionPool does.
        defer { sessions.withLock { if $0.count < 8 { $0.append(set) } } }
        var gestures: [[ResultCategory]] = []
        for i in found.landmarks.indices {
            guard var handedness = found.handedness[i].first else { gestures.append([]); continue }
            if options.mirrored {
                // The nets saw the buffer as it is: undo the swap that names the person's real hand.
                handedness.categoryName = handedness.categoryName == "Right" ? "Left" : "Right"
            }
            let gesture = try self.gesture(
                GestureEmbedderInputs(
                    landmarks: found.landmarks[i], worldLandmarks: found.worldLandmarks[i], handedness: handedness,
                    imageWidth: image.uprightWidth, imageHeight: image.uprightHeight), with: set)
            gestures.append(gesture.map { [$0] } ?? [])
        }
        return GestureRecognizerResult(
            gestures: gestures, handedness: found.handedness, landmarks: found.landmarks, worldLandmarks: found.worldLandmarks,
            timestampInMilliseconds: found.timestampInMilliseconds, trackingIDs: found.trackingIDs)
    }

    /// One hand's gesture (nil when no classifier keeps a category), from its embedder inputs.
    func gesture(_ inputs: GestureEmbedderInputs, with set: GestureSessions) throws -> ResultCategory? {
        do {
            let embedding = try set.embedding(inputs)
            var lists: [[ResultCategory]] = []
            if let custom = set.custom, let head = models.customHead {
                lists.append(GestureClassification.categories(try custom.run([embedding])[0], head: head, options: options.customGesturesClassifierOptions))
            }
            lists.append(
                GestureClassification.categories(try set.canned.run([embedding])[0], head: models.cannedHead, options: options.cannedGesturesClassifierOptions))
            return GestureClassification.combined(lists)
        } catch {
            throw GestureRecognizerError.invalidModel("gesture nets: \(error)", underlying: error as? BlazeError)
        }
    }

    /// A session set for a test's direct calls of `gesture(_:with:)`.
    func makeSessions() -> GestureSessions { models.makeSessions(threads: options.numThreads) }
}
