import BlazeEngine
import Dispatch
import Foundation

/// Finds faces and their 478 landmarks, optionally with 52 blendshapes and the facial
/// transformation matrix (MediaPipe Tasks' FaceLandmarker, docs/pipelines.md §4, Tasks flavour).
///
/// ```swift
/// var options = FaceLandmarkerOptions()
/// options.numFaces = 2
/// options.outputFaceBlendshapes = true
/// let landmarker = try FaceLandmarker(options: options)
/// let result = try landmarker.detect(image: image)
/// for (face, blendshapes) in zip(result.faceLandmarks, result.faceBlendshapes) { … }
/// ```
///
/// Running modes: `.image` runs the face detector and the mesh net on every call. `.video`
/// (`detect(videoFrame:timestampInMilliseconds:)`) and `.liveStream` (`detectAsync`) track faces
/// from frame to frame: while `numFaces` faces are tracked the detector is skipped and each frame
/// costs one mesh net per face (plus the blendshape net when asked for). With `numFaces == 1`
/// the landmarks of video and live-stream frames are smoothed as MediaPipe does.
///
/// Coordinates are in the **upright** image (`VisionImage.orientation` applied).
///
/// Thread safety: a landmarker may be used from many threads at once. Image-mode calls run in
/// parallel (each borrows its own set of sessions); video calls are serialized, as their frames
/// depend on each other.
///
/// `FaceDetector` is the ML Kit-style API over the same nets (frames, contours, probabilities,
/// Euler angles); this class gives MediaPipe's raw outputs.
public final class FaceLandmarker: @unchecked Sendable {
    // @unchecked: the mutable state is in `frames` and `core`, which guard it; the rest is immutable.

    /// The options the landmarker was made with (the delegate is still held weakly).
    public let options: FaceLandmarkerOptions
    let pipeline: FaceLandmarkerPipeline
    /// Session sets, the tracker and the counters.
    private let frames: TrackedFrames<FaceSessions, FaceLandmarkerTracker, FaceFrameWork>
    /// Mode checks, timestamps, frame order, live stream and `close()`.
    let core: TaskCore<FaceLandmarkerLiveStreamResult>

    /// Creates a landmarker; loads and checks its nets (the blendshape net only when
    /// `outputFaceBlendshapes`).
    ///
    /// - Throws: `FaceLandmarkerError` — invalid options (`numFaces` outside
    ///   `1...maximumNumFaces`, a confidence outside [0, 1]), a delegate missing in live stream or
    ///   present in another mode, a `.task` / `.tflite` `modelAssetPath`, missing or wrong models.
    public convenience init(options: FaceLandmarkerOptions) throws {
        try self.init(options: options, continuation: nil)
    }

    /// An image-mode landmarker with default options whose models are in the folder `modelPath`.
    public convenience init(modelPath: String) throws {
        var options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    init(options: FaceLandmarkerOptions, continuation: AsyncStream<FaceLandmarkerLiveStreamResult>.Continuation?) throws {
        try options.validate(allowsMissingDelegate: continuation != nil)
        let models = try FaceLandmarkerModels.load(options)
        self.options = options
        pipeline = FaceLandmarkerPipeline(options: options)
        let threads = options.numThreads
        frames = TrackedFrames(tracker: FaceLandmarkerTracker(), statistics: FaceLandmarkerStatistics()) {
            models.makeSessions(threads: threads)
        }
        core = TaskCore(label: "FaceLandmarker", runningMode: options.runningMode, continuation: continuation)
    }

    /// Ends the landmarker's use: every later `detect…` call throws `FaceLandmarkerError.closed`.
    /// In live stream, frames accepted before `close()` are still processed and delivered, then
    /// the `AsyncStream` of `liveStream(options:)` finishes. Calling it again does nothing.
    public func close() {
        core.close()
    }

    /// Session sets this landmarker has made; for checks within the package.
    package var sessionSetsCreated: Int { frames.sessionSetsCreated }

    /// What the landmarker has done so far (frames, detector, mesh and blendshape runs).
    public var statistics: FaceLandmarkerStatistics {
        var statistics = frames.statistics
        statistics.droppedFrames = core.liveStream.droppedFrames
        return statistics
    }

    // MARK: - Detection

    /// Image mode: finds up to `numFaces` faces in `image`.
    ///
    /// - Throws: `FaceLandmarkerError.runningModeMismatch` outside `.image` mode, `.closed`, or
    ///   `.invalidImage`.
    public func detect(image: VisionImage) throws -> FaceLandmarkerResult {
        try core.check(.image, method: "detect(image:)")
        return try process(image, timestamp: 0, tracked: false)
    }

    /// Video mode: the next frame of a video. Timestamps must strictly increase.
    ///
    /// - Throws: `FaceLandmarkerError.runningModeMismatch` outside `.video` mode,
    ///   `.nonIncreasingTimestamp`, `.closed`, or `.invalidImage`.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> FaceLandmarkerResult {
        try core.check(.video, method: "detect(videoFrame:timestampInMilliseconds:)")
        return try core.videoFrame(timestamp) { try process(image, timestamp: timestamp, tracked: true) }
    }

    // MARK: - Internals

    /// One frame; a `tracked` one (video, live stream) continues the frames before it (`core`
    /// orders them). Engine errors (an image that cannot be sampled) become `.invalidImage`.
    func process(_ image: VisionImage, timestamp: Int, tracked: Bool) throws -> FaceLandmarkerResult {
        do {
            return try frames.process(tracked: tracked) { tracker, sessions, work in
                try pipeline.process(image, timestamp: timestamp, tracker: &tracker, sessions: sessions, work: &work)
            }
        } catch let error as FaceLandmarkerError { throw error } catch {
            throw FaceLandmarkerError.invalidImage("\(error)", underlying: error as? BlazeError)
        }
    }
}
