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
/// Running modes: `.image` (`recognize(image:)`), `.video`
/// (`recognize(videoFrame:timestampInMilliseconds:)`, with the hand landmarker's tracking) and
/// `.liveStream` (`recognizeAsync(image:timestampInMilliseconds:)`: a frame offered while another
/// is processed is dropped; results go to the delegate or to the `AsyncStream` of
/// `liveStream(options:)`). Coordinates, handedness and tracking IDs are the hand landmarker's
/// (upright image).
///
/// Thread safety: image-mode calls may run in parallel from many threads; video frames are
/// serialized, as with `HandLandmarker`.
public final class GestureRecognizer: Sendable {
    /// The options the recognizer was made with.
    public let options: GestureRecognizerOptions
    private let hands: HandLandmarker
    private let models: GestureModels
    private let sessions: SessionPool<GestureSessions>
    /// Mode checks, live-stream timestamps, live stream and `close()` (video timestamps are the
    /// hand landmarker's).
    private let core: TaskCore<GestureRecognizerLiveStreamResult>

    /// Creates a recognizer; loads and checks the nets.
    ///
    /// - Throws: `GestureRecognizerError` — invalid options (as `HandLandmarker`'s, and classifier
    ///   options: a non-finite threshold, allow and deny lists together or for a classifier without
    ///   labels, an allowlist naming none of the labels), a delegate missing in live stream or
    ///   present in another mode, a missing or unconverted `modelAssetPath`, missing or wrong
    ///   model files.
    public convenience init(options: GestureRecognizerOptions) throws {
        try self.init(options: options, continuation: nil)
    }

    /// A live-stream recognizer whose results arrive as an `AsyncStream` (a delegate in `options`
    /// also gets them). The stream finishes after `close()` or when the recognizer is released.
    public static func liveStream(options: GestureRecognizerOptions) throws
        -> (recognizer: GestureRecognizer, results: AsyncStream<GestureRecognizerLiveStreamResult>)
    {
        try TaskCore.liveStream(options, GestureRecognizer.init(options:continuation:))
    }

    private init(options: GestureRecognizerOptions, continuation: AsyncStream<GestureRecognizerLiveStreamResult>.Continuation?) throws {
        try options.validateDelegate(allowsMissingDelegate: continuation != nil)
        let models: GestureModels
        var handFolder: String?
        if let path = options.baseOptions.modelAssetPath {
            let ext = (path as NSString).pathExtension.lowercased()
            if ext == "task" || ext == "tflite" { throw GestureRecognizerError.unconvertedModel(path: path) }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw GestureRecognizerError.modelNotFound("modelAssetPath must be a folder holding a converted gesture bundle, got \(path)")
            }
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            models = try GestureModels(folder: folder)
            // The bundle's hand nets when the folder has them, else the bundled ones (the same files).
            handFolder = HandModels.folderHasModels(folder, variant: .full) ? path : nil
        } else {
            models = try GestureModels.bundled()
        }
        try options.cannedGesturesClassifierOptions.validate(labels: models.cannedHead.labels, what: "cannedGesturesClassifierOptions")
        try options.customGesturesClassifierOptions.validate(labels: models.customHead?.labels, what: "customGesturesClassifierOptions")
        hands = try HandLandmarker(options: options.handLandmarkerOptions(handModelFolder: handFolder))
        self.options = options
        self.models = models
        let threads = options.numThreads
        sessions = SessionPool { models.makeSessions(threads: threads) }
        core = TaskCore(label: "GestureRecognizer", runningMode: options.runningMode, continuation: continuation)
    }

    /// Ends the recognizer's use: later calls throw `GestureRecognizerError.closed`. In live
    /// stream, frames accepted before are still delivered, then the `AsyncStream` finishes.
    public func close() { core.close() }

    /// Live-stream frames dropped because another one was being processed.
    public var droppedFrames: Int { core.liveStream.droppedFrames }

    /// Image mode: the gestures of up to `numHands` hands in `image`.
    ///
    /// - Throws: `GestureRecognizerError.runningModeMismatch` outside `.image` mode, or image errors.
    public func recognize(image: VisionImage) throws -> GestureRecognizerResult {
        try core.check(.image, method: "recognize(image:)")
        return try gestures(of: hands.detect(image: image), image: image)
    }

    /// Video mode: the next frame of a video. Timestamps must strictly increase.
    ///
    /// - Throws: `GestureRecognizerError.runningModeMismatch` outside `.video` mode,
    ///   `.nonIncreasingTimestamp`, or image errors.
    public func recognize(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> GestureRecognizerResult {
        try core.check(.video, method: "recognize(videoFrame:timestampInMilliseconds:)")
        return try gestures(of: hands.detect(videoFrame: image, timestampInMilliseconds: timestamp), image: image)
    }

    /// Live-stream mode: hands `image` to the recognizer and returns at once; the result goes to
    /// the delegate (and the `AsyncStream`) on a private serial queue, in timestamp order.
    ///
    /// - Returns: true if the frame was accepted, false if it was dropped because the recognizer
    ///   was busy.
    /// - Throws: `GestureRecognizerError.runningModeMismatch` outside `.liveStream` mode,
    ///   `.nonIncreasingTimestamp` (checked for dropped frames too), `.closed` after `close()`.
    ///   Errors while processing an accepted frame go to the delegate instead.
    @discardableResult
    public func recognizeAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> Bool {
        try core.submit(
            method: "recognizeAsync(image:timestampInMilliseconds:)", timestamp: timestamp,
            process: { [self] in try gestures(of: hands.detect(videoFrame: image, timestampInMilliseconds: timestamp), image: image) },
            notify: { [self] result, error in
                options.gestureRecognizerLiveStreamDelegate?.gestureRecognizer(
                    self, didFinishRecognition: result, timestampInMilliseconds: timestamp, error: error)
            })
    }

    /// Classifies every hand of `found`.
    private func gestures(of found: HandLandmarkerResult, image: VisionImage) throws -> GestureRecognizerResult {
        try sessions.withSessions { try gestures(of: found, image: image, with: $0) }
    }

    private func gestures(of found: HandLandmarkerResult, image: VisionImage, with set: GestureSessions) throws -> GestureRecognizerResult {
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
