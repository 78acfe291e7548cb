import BlazeEngine
import Dispatch
import Foundation

/// Detects faces in still images or video frames, with ML Kit's iOS Face Detection API on
/// MediaPipe's nets (docs/pipelines.md §3–§5):
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.performanceMode = .accurate
/// options.contourMode = .all
/// let detector = try FaceDetector.faceDetector(options: options)
/// let faces = try detector.results(in: image)          // or `try await detector.process(image)`
/// ```
///
/// * Returned faces are BlazeFace detections (`.fast`: short range, score ≥ 0.5; `.accurate`:
///   full range sparse, score ≥ 0.6), weighted NMS with IoU 0.3, sorted by descending score,
///   in floating-point pixels of the upright image. Faces narrower than `minFaceSize` × image
///   width are dropped.
/// * Mesh-based fields follow the Tasks FaceLandmarker (IMAGE mode): the same raw detections
///   with its NMS IoU 0.5 give `EXPANDED_FACE_RECT`s, the 478-point net runs on 256² crops, and
///   each mesh is attached to the returned face it overlaps most (one mesh per face). A face
///   whose mesh presence fails keeps only its detector fields.
/// * Head pose: from the mesh's facial transformation matrix (§5.3); without a mesh, Z from the
///   eye keypoints and Y estimated from eyes and nose tip (see `keypointEulerAngles`), no X.
/// * A call runs only the nets its options need.
///
/// **Threads.** A detector is `Sendable`: any number of threads may call it at once (each call
/// takes its own set of sessions from a pool). With `isTrackingEnabled`, calls are processed one
/// at a time, in call order (the async and completion-handler forms enqueue on a private serial
/// queue when called); each call continues the face IDs of the call before it. Completion
/// handlers run on a private serial queue, never on `DispatchQueue.main`.
public final class FaceDetector: Sendable {
    /// The options this detector was made with.
    public let options: FaceDetectorOptions
    let configuration: FaceDetectorConfiguration
    let nets: FaceNets
    let pool: SessionPool<FaceSessions>
    /// Tracking state; with tracking on, its lock is held for a whole call (call order).
    let tracker = Locked(FaceTracker())
    /// Runs `process` calls: serial with tracking (call order), concurrent otherwise.
    private let workQueue: DispatchQueue
    /// Delivers completion handlers, in the order their calls finished.
    private let completionQueue = DispatchQueue(label: "BlazeKit.FaceDetector.completion")

    /// A detector with `options`. Loads the nets the options need (from the bundled models, or
    /// from `modelDirectory` when given; see `BundledModel`).
    ///
    /// - Throws: `BlazeError(.invalidInput)` for `minFaceSize` outside [0, 1] or NaN;
    ///   `BlazeError(.io)` / `.corruptModel` when a model cannot be loaded.
    public static func faceDetector(
        options: FaceDetectorOptions = FaceDetectorOptions(),
        modelDirectory: URL? = nil
    ) throws -> FaceDetector {
        try FaceDetector(options: options, modelDirectory: modelDirectory)
    }

    init(options: FaceDetectorOptions, modelDirectory: URL?) throws {
        try options.validate()
        self.options = options
        configuration = FaceDetectorConfiguration(options.performanceMode)
        let nets = try FaceNets(options: options, modelDirectory: modelDirectory)
        self.nets = nets
        pool = SessionPool { nets.makeSessions() }
        workQueue =
            options.isTrackingEnabled
            ? DispatchQueue(label: "BlazeKit.FaceDetector.work")
            : DispatchQueue(label: "BlazeKit.FaceDetector.work", attributes: .concurrent)
    }

    /// Session sets this detector has made (one per call that ran at the same time as others);
    /// for soak checks within the package.
    package var sessionSetsCreated: Int { pool.created }

    /// Detects the faces in `image` synchronously, on the calling thread.
    ///
    /// - Throws: `BlazeError` when the image cannot be sampled (never for "no face": that is an
    ///   empty array).
    public func results(in image: VisionImage) throws -> [Face] {
        guard options.isTrackingEnabled else {
            return try pool.withSessions { try detectFaces(in: image, sessions: $0) }.faces
        }
        return try tracker.withLock { tracker -> [Face] in
            let frame = try pool.withSessions { try detectFaces(in: image, sessions: $0) }
            let ids = tracker.assignIDs(to: frame.trackingRects)
            var faces = frame.faces
            for i in faces.indices { faces[i].tracking = ids[i] }
            return faces
        }
    }

    /// Detects the faces in `image` off the caller's task, on the detector's private queue.
    public func process(_ image: VisionImage) async throws -> [Face] {
        try await withCheckedThrowingContinuation { continuation in
            workQueue.async {
                continuation.resume(with: Result { try self.results(in: image) })
            }
        }
    }

    /// Detects the faces in `image` on the detector's private queue and calls `completion` with
    /// the faces (possibly empty) or an error, on a private serial queue (never the main queue).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Face]?, (any Error)?) -> Void) {
        workQueue.async {
            let result = Result { try self.results(in: image) }
            self.completionQueue.async {
                switch result {
                case .success(let faces): completion(faces, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
    }
}
