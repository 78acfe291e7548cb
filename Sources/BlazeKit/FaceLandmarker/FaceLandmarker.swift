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
    // @unchecked: mutable state (`tracker`, `stats`) is only touched under `lock`; sessions are borrowed from `pool` by one thread at a time; the rest is immutable.

    /// The options the landmarker was made with (the delegate is still held weakly).
    public let options: FaceLandmarkerOptions
    let pipeline: FaceLandmarkerPipeline
    private let pool: SessionPool<FaceSessions>
    let lock = NSLock()
    private var tracker: FaceLandmarkerTracker?
    var stats = FaceLandmarkerStatistics()
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
        pool = SessionPool { models.makeSessions(threads: threads) }
        tracker = options.runningMode == .image ? nil : FaceLandmarkerTracker()
        core = TaskCore(label: "FaceLandmarker", runningMode: options.runningMode, continuation: continuation)
    }

    /// Ends the landmarker's use: every later `detect…` call throws `FaceLandmarkerError.closed`.
    /// In live stream, frames accepted before `close()` are still processed and delivered, then
    /// the `AsyncStream` of `liveStream(options:)` finishes. Calling it again does nothing.
    public func close() {
        core.close()
    }

    /// Session sets this landmarker has made; for checks within the package.
    package var sessionSetsCreated: Int { pool.created }

    /// What the landmarker has done so far (frames, detector, mesh and blendshape runs).
    public var statistics: FaceLandmarkerStatistics {
        var statistics = lock.withLock { stats }
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
        var work = FaceFrameWork()
        var noTracker: FaceLandmarkerTracker? = nil
        let result = try imageErrors {
            try pool.withSessions { try pipeline.process(image, timestamp: 0, tracker: &noTracker, sessions: $0, work: &work) }
        }
        record(work)
        return result
    }

    /// Video mode: the next frame of a video. Timestamps must strictly increase.
    ///
    /// - Throws: `FaceLandmarkerError.runningModeMismatch` outside `.video` mode,
    ///   `.nonIncreasingTimestamp`, `.closed`, or `.invalidImage`.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> FaceLandmarkerResult {
        try core.check(.video, method: "detect(videoFrame:timestampInMilliseconds:)")
        return try core.videoFrame(timestamp) { try processTracked(image, timestamp: timestamp) }
    }

    // MARK: - Internals

    /// Engine errors of a frame (an image that cannot be sampled) as `FaceLandmarkerError.invalidImage`.
    func imageErrors<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as FaceLandmarkerError { throw error } catch {
            throw FaceLandmarkerError.invalidImage("\(error)", underlying: error as? BlazeError)
        }
    }

    /// One tracked frame (`core` orders the frames; `lock` guards the state).
    func processTracked(_ image: VisionImage, timestamp: Int) throws -> FaceLandmarkerResult {
        var state = lock.withLock { tracker }
        var work = FaceFrameWork()
        let result = try imageErrors {
            try pool.withSessions { try pipeline.process(image, timestamp: timestamp, tracker: &state, sessions: $0, work: &work) }
        }
        lock.withLock { tracker = state }
        record(work)
        return result
    }

    func record(_ work: FaceFrameWork) {
        lock.withLock {
            stats.framesProcessed += 1
            stats.meshRuns += work.meshRuns
            stats.blendshapeRuns += work.blendshapeRuns
            if work.detectorRan { stats.faceDetectionRuns += 1 }
        }
    }
}
