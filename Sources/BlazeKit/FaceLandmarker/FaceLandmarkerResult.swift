/// The categories one classifier head gave (MediaPipe Tasks' `Classifications`).
public struct Classifications: Sendable, Hashable {
    /// In the model's output order (for blendshapes: index 0 `_neutral` … 51 `noseSneerRight`).
    public var categories: [ResultCategory]
    /// Index of the classifier head (0 for the blendshape net).
    public var headIndex: Int
    public var headName: String?

    public init(categories: [ResultCategory], headIndex: Int = 0, headName: String? = nil) {
        self.categories = categories
        self.headIndex = headIndex
        self.headName = headName
    }
}

/// A row-major matrix (MediaPipe Tasks' `TransformMatrix`).
public struct TransformMatrix: Sendable, Hashable {
    public var rows: Int
    public var columns: Int
    /// `rows × columns` values, row by row.
    public var data: [Float]

    public init(rows: Int, columns: Int, data: [Float]) {
        precondition(data.count == rows * columns, "a \(rows)×\(columns) matrix needs \(rows * columns) values, got \(data.count)")
        self.rows = rows
        self.columns = columns
        self.data = data
    }

    public subscript(row: Int, column: Int) -> Float { data[row * columns + column] }
}

/// What `FaceLandmarker` finds in one image or frame (MediaPipe Tasks' `FaceLandmarkerResult`).
/// The arrays are parallel: face `i` is `faceLandmarks[i]`, `faceBlendshapes[i]` (when asked
/// for), `facialTransformationMatrixes[i]` (when asked for) and `trackingIDs[i]` (video and live
/// stream), in pipeline order.
public struct FaceLandmarkerResult: Sendable, Hashable {
    /// Per face, 478 landmarks normalized to the **upright** image: `x / W`, `y / H` (may fall
    /// slightly outside [0, 1]); `z` is depth in the scale of `x`, relative to the face's centre
    /// (smaller = closer to the camera). Points 468…477 are the irises.
    public var faceLandmarks: [[NormalizedLandmark]]
    /// Per face, 52 blendshape scores in [0, 1] with MediaPipe's names (`_neutral`, `browDownLeft`,
    /// …); empty unless `outputFaceBlendshapes`.
    public var faceBlendshapes: [Classifications]
    /// Per face, the 4×4 transformation from MediaPipe's canonical face model (centimetres) to the
    /// camera frame; empty unless `outputFacialTransformationMatrixes`. A face whose landmarks are
    /// degenerate (all within 1e-3 of their mean, where MediaPipe computes no geometry) gets NaNs.
    public var facialTransformationMatrixes: [TransformMatrix]
    /// The timestamp of the frame (0 in image mode).
    public var timestampInMilliseconds: Int
    /// Beyond MediaPipe: per face, an ID that stays with the face while it is tracked across
    /// frames and is never reused (video and live stream; empty in image mode).
    public var trackingIDs: [Int]

    public init(
        faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [Classifications] = [],
        facialTransformationMatrixes: [TransformMatrix] = [], timestampInMilliseconds: Int, trackingIDs: [Int] = []
    ) {
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        self.timestampInMilliseconds = timestampInMilliseconds
        self.trackingIDs = trackingIDs
    }
}

/// Counters of the work a `FaceLandmarker` did (beyond MediaPipe; for tests and benchmarks).
public struct FaceLandmarkerStatistics: Sendable, Hashable {
    /// Images / frames processed (dropped live-stream frames not counted).
    public var framesProcessed = 0
    /// Times the face detector ran. In video / live stream it is skipped while `numFaces` faces
    /// are tracked, so a tracked frame costs one mesh net (and one blendshape net) per face.
    public var faceDetectionRuns = 0
    /// Mesh net runs.
    public var meshRuns = 0
    /// Blendshape net runs.
    public var blendshapeRuns = 0
    /// Live-stream frames ignored because another frame was being processed.
    public var droppedFrames = 0

    public init() {}
}

/// The result of one live-stream frame, as delivered by `FaceLandmarker.liveStream(options:)`'s
/// `AsyncStream` (the delegate gets the same in its arguments).
public typealias FaceLandmarkerLiveStreamResult = LiveStreamResult<FaceLandmarkerResult, FaceLandmarkerError>

/// Receives live-stream results (MediaPipe Tasks' `FaceLandmarkerLiveStreamDelegate`).
///
/// Called on one private serial queue of the landmarker, in timestamp order, once per frame that
/// `detectAsync` accepted (frames dropped because the landmarker was busy get no call). Conformers
/// must be `Sendable`.
public protocol FaceLandmarkerLiveStreamDelegate: AnyObject, Sendable {
    /// `result` is nil exactly when `error` is set; a frame without faces gives an empty result.
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
