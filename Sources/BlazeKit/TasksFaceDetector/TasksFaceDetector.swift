import BlazeEngine
import BlazeModels
import Dispatch
import Foundation

/// The errors of `TasksFaceDetector`: the face tasks share one error type.

/// MediaPipe Tasks' FaceDetector: BlazeFace short range on the whole image, weighted NMS,
/// boxes with six keypoints and a score (docs/pipelines.md §3, Tasks column). ML Kit's API over
/// the same net, with landmarks, contours and probabilities, is `FaceDetector`.
///
/// ```swift
/// let detector = try TasksFaceDetector(options: TasksFaceDetectorOptions())
/// for face in try detector.detect(image: image).detections { print(face.boundingBox, face.categories[0].score) }
/// ```
///
/// No tracking in any mode (as MediaPipe): video and live stream run the detector on every
/// frame; timestamps must strictly increase; live stream drops frames while busy. Image-mode
/// calls may run on many threads at once.
public final class TasksFaceDetector: @unchecked Sendable {
    // @unchecked: sessions are borrowed from `sessions` by one call at a time; the rest is
    // immutable or guards itself.

    public let options: TasksFaceDetectorOptions
    private let configuration = FaceDetectorConfiguration(.fast)
    private let sessions: SessionPool<Session>
    /// Mode checks, timestamps, live stream and `close()`.
    let core: TaskCore<Result<FaceDetectorResult, TasksFaceDetectorError>>

    /// - Throws: `TasksFaceDetectorError` for invalid options or a missing / wrong model.
    public convenience init(options: TasksFaceDetectorOptions) throws {
        try self.init(options: options, continuation: nil)
    }

    init(options: TasksFaceDetectorOptions, continuation: AsyncStream<Result<FaceDetectorResult, TasksFaceDetectorError>>.Continuation?) throws {
        try options.validate(allowsMissingDelegate: continuation != nil)
        let url = try FaceLandmarkerModels.locate(
            [FaceLandmarkerModels.detectorNames], bundled: [.faceDetectionShortRange],
            modelAssetPath: options.baseOptions.modelAssetPath)[0]
        let model = try FaceLandmarkerModels.loadDetector(url)
        let threads = options.numThreads
        sessions = SessionPool { model.makeSession(threads: threads) }
        self.options = options
        core = TaskCore(label: "TasksFaceDetector", runningMode: options.runningMode, continuation: continuation)
    }

    /// A live-stream detector whose results (in timestamp order) arrive on an `AsyncStream`; it
    /// finishes after `close()` or when the detector is released.
    public static func liveStream(options: TasksFaceDetectorOptions) throws
        -> (detector: TasksFaceDetector, results: AsyncStream<Result<FaceDetectorResult, TasksFaceDetectorError>>)
    {
        try TaskCore.liveStream(options, TasksFaceDetector.init(options:continuation:))
    }

    /// Live-stream frames ignored because another frame was being processed.
    public var droppedFrameCount: Int { core.liveStream.droppedFrames }

    /// Ends the detector's use: later calls throw `TasksFaceDetectorError.closed`; frames
    /// already accepted in live stream are still delivered, then the stream finishes.
    public func close() {
        core.close()
    }

    /// Image mode.
    public func detect(image: VisionImage) throws -> FaceDetectorResult {
        try core.check(.image, method: "detect(image:)")
        return try run(image, timestamp: 0)
    }

    /// Video mode: the next frame; timestamps must strictly increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> FaceDetectorResult {
        // No tracking, so frames need no order beyond their timestamps (as MediaPipe).
        try core.check(.video, method: "detect(videoFrame:timestampInMilliseconds:)")
        try core.accept(timestamp)
        return try run(image, timestamp: timestamp)
    }

    /// Live-stream mode: returns at once; false when the frame was dropped because the detector
    /// was busy. The result goes to the delegate and the `liveStream(options:)` stream.
    @discardableResult
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> Bool {
        try core.submit(
            method: "detectAsync(image:timestampInMilliseconds:)", timestamp: timestamp,
            process: { [self] in try run(image, timestamp: timestamp) },
            notify: { [self] result, error in
                options.faceDetectorLiveStreamDelegate?.faceDetector(
                    self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
    }

    private func run(_ image: VisionImage, timestamp: Int) throws -> FaceDetectorResult {
        try sessions.withSessions { try run(image, timestamp: timestamp, on: $0) }
    }

    private func run(_ image: VisionImage, timestamp: Int, on session: Session) throws -> FaceDetectorResult {
        let w = image.uprightWidth, h = image.uprightHeight
        do {
            let (raw, transform) = try configuration.detect(in: image, session: session, minScore: options.minDetectionConfidence)
            let kept = nonMaxSuppression(raw, iouThreshold: options.minSuppressionThreshold)
                .map { $0.projected(by: transform.projection) }
                .filter(\.isFinite)
            let detections = kept.map { Self.faceDetection($0, width: Double(w), height: Double(h)) }
            return FaceDetectorResult(detections: detections, timestampInMilliseconds: timestamp)
        } catch let error as TasksFaceDetectorError {
            throw error
        } catch {
            throw TasksFaceDetectorError.invalidImage("\(error)", underlying: error as? BlazeError)
        }
    }

    /// MediaPipe's pixel box: each of x, y, width, height truncated to an integer and clamped to
    /// [0, image width or height] on its own (measured on neg_chelsea_cat: a box reaching past
    /// the left and bottom edges comes back as x 0 and height = the image height).
    private static func faceDetection(_ d: Detection, width w: Double, height h: Double) -> FaceDetection {
        func pixels(_ v: Float, _ size: Double) -> Double { min(max((Double(v) * size).rounded(.towardZero), 0), size) }
        let box = VisionRect(x: pixels(d.box.xmin, w), y: pixels(d.box.ymin, h), width: pixels(d.box.width, w), height: pixels(d.box.height, h))
        var keypoints: [NormalizedKeypoint] = []
        for (type, point) in zip(FaceKeypoint.allCases, d.keypoints) {
            keypoints.append(NormalizedKeypoint(x: point.x, y: point.y, label: type.name))
        }
        let category = ResultCategory(index: 0, score: d.score, categoryName: nil, displayName: nil)
        return FaceDetection(categories: [category], boundingBox: box, keypoints: keypoints)
    }
}
