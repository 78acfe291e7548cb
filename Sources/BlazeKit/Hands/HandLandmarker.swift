import BlazeEngine
import Dispatch
import Foundation

/// Finds hands and their 21 landmarks (MediaPipe Tasks' HandLandmarker, docs/pipelines.md §6, Tasks
/// flavour): a palm detector proposes hand regions, the hand landmark net runs on each.
///
/// ```swift
/// var options = HandLandmarkerOptions()
/// options.numHands = 2
/// let landmarker = try HandLandmarker(options: options)
/// let result = try landmarker.detect(image: image)
/// for (hand, landmarks) in zip(result.handedness, result.landmarks) { … }
/// ```
///
/// Running modes: `.image` runs palm detection and the landmark net on every call. `.video`
/// (`detect(videoFrame:timestampInMilliseconds:)`) and `.liveStream` (`detectAsync`) track hands
/// from frame to frame: while `numHands` hands are tracked the palm detector is skipped and each
/// frame costs one landmark net per hand.
///
/// Coordinates: results are in the **upright** image (`VisionImage.orientation` applied;
/// MediaPipe's rotation option instead reports stored-image coordinates). All 8 orientations of
/// the same picture give the same hands.
///
/// Beyond MediaPipe: a region of interest per call (palm detection only looks there), tracking
/// IDs (`HandLandmarkerResult.trackingIDs`), One-Euro smoothing (`smoothLandmarks`), `mirrored`
/// for selfie buffers, and `statistics`.
///
/// Thread safety: a landmarker may be used from many threads at once. Image-mode calls run in
/// parallel (each borrows its own pair of sessions); video calls are serialized, as their frames
/// depend on each other.
public final class HandLandmarker: @unchecked Sendable {
    // @unchecked: the mutable state is in `frames` and `core`, which guard it; the rest is immutable.

    /// The options the landmarker was made with (the delegate is still held weakly).
    public let options: HandLandmarkerOptions
    let pipeline: HandPipeline
    /// Session sets, the tracker and the counters.
    private let frames: TrackedFrames<HandSessions, HandTracker, FrameWork>
    private let smoothing: LandmarkSmoothingOptions?
    /// Mode checks, timestamps, frame order, live stream and `close()`.
    let core: TaskCore<HandLandmarkerLiveStreamResult>

    /// Creates a landmarker; loads and checks the two nets.
    ///
    /// - Throws: `HandLandmarkerError` — invalid options (`numHands < 1`, a confidence outside
    ///   [0, 1]), a delegate missing in live stream or present in another mode, a `.task` /
    ///   `.tflite` `modelAssetPath` (convert it with `blaze-model convert`), missing or wrong
    ///   model files.
    public convenience init(options: HandLandmarkerOptions) throws {
        try self.init(options: options, continuation: nil)
    }

    /// An image-mode landmarker with default options whose models are in the folder `modelPath`
    /// (holding `palm_detection_full.bkm` and `hand_landmark_full.bkm`).
    public convenience init(modelPath: String) throws {
        var options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    init(options: HandLandmarkerOptions, continuation: AsyncStream<HandLandmarkerLiveStreamResult>.Continuation?) throws {
        try options.validate(allowsMissingDelegate: continuation != nil)
        let models = try HandModels.load(options)
        self.options = options
        pipeline = HandPipeline(models: models, options: options)
        let (threads, numHands) = (options.numThreads, options.numHands)
        frames = TrackedFrames(tracker: HandTracker(), statistics: HandLandmarkerStatistics()) {
            HandSessions(models: models, threads: threads, numHands: numHands)
        }
        smoothing = options.smoothLandmarks && options.runningMode != .image ? options.smoothingParameters : nil
        core = TaskCore(label: "HandLandmarker", runningMode: options.runningMode, continuation: continuation)
    }

    /// Ends the landmarker's use: every later `detect…` call throws `HandLandmarkerError.closed`.
    /// In live stream, frames accepted before `close()` are still processed and delivered, then
    /// the `AsyncStream` of `liveStream(options:)` finishes (so a `for await` loop ends). Calling
    /// it again does nothing. Releasing the landmarker also finishes the stream.
    public func close() {
        core.close()
    }

    /// Session sets this landmarker has made (one per call that ran at the same time as others);
    /// for soak checks within the package.
    package var sessionSetsCreated: Int { frames.sessionSetsCreated }

    /// What the landmarker has done so far (frames, palm detector and landmark net runs).
    public var statistics: HandLandmarkerStatistics {
        var statistics = frames.statistics
        statistics.droppedFrames = core.liveStream.droppedFrames
        return statistics
    }

    // MARK: - Detection

    /// Image mode: finds up to `numHands` hands in `image`.
    ///
    /// - Parameter regionOfInterest: beyond MediaPipe (whose hand landmarker rejects one): only
    ///   palms inside this rect (normalized upright coordinates, may be rotated) are looked for.
    /// - Throws: `HandLandmarkerError.runningModeMismatch` outside `.image` mode, or image and
    ///   region errors.
    public func detect(image: VisionImage, regionOfInterest: NormalizedRect? = nil) throws -> HandLandmarkerResult {
        try core.check(.image, method: "detect(image:)")
        try Self.validate(regionOfInterest)
        return try process(image, region: regionOfInterest, timestamp: 0, tracked: false)
    }

    /// Video mode: the next frame of a video. Timestamps must strictly increase.
    ///
    /// - Throws: `HandLandmarkerError.runningModeMismatch` outside `.video` mode,
    ///   `.nonIncreasingTimestamp`, or image and region errors.
    public func detect(
        videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int,
        regionOfInterest: NormalizedRect? = nil
    ) throws -> HandLandmarkerResult {
        try core.check(.video, method: "detect(videoFrame:timestampInMilliseconds:)")
        try Self.validate(regionOfInterest)
        return try core.videoFrame(timestamp) { try process(image, region: regionOfInterest, timestamp: timestamp, tracked: true) }
    }

    // MARK: - Internals

    static func validate(_ region: NormalizedRect?) throws {
        guard let r = region else { return }
        guard r.xCenter.isFinite, r.yCenter.isFinite, r.width.isFinite, r.height.isFinite, r.rotation.isFinite else {
            throw HandLandmarkerError.invalidRegionOfInterest("values must be finite, got \(r)")
        }
        guard r.width > 0, r.height > 0 else {
            throw HandLandmarkerError.invalidRegionOfInterest("width and height must be positive, got \(r.width)×\(r.height)")
        }
    }

    /// One frame; a `tracked` one (video, live stream) continues the frames before it (`core`
    /// orders them).
    func process(_ image: VisionImage, region: NormalizedRect?, timestamp: Int, tracked: Bool) throws -> HandLandmarkerResult {
        try frames.process(tracked: tracked) { tracker, sessions, work in
            try pipeline.process(
                image, region: region, timestamp: timestamp, tracker: &tracker,
                minTrackingConfidence: options.minTrackingConfidence, smoothing: tracked ? smoothing : nil,
                sessions: sessions, work: &work)
        }
    }
}
