/// Options of a `FaceLandmarker` (MediaPipe Tasks' `FaceLandmarkerOptions`, as a value type:
/// `var options = FaceLandmarkerOptions(); options.numFaces = 2`). The landmarker keeps a copy,
/// so changing the struct afterwards has no effect on it.
public struct FaceLandmarkerOptions: Sendable {
    /// `modelAssetPath`: nil for the bundled models, or a folder holding
    /// `face_detection_short_range.bkm`, `face_landmarks_detector.bkm` and (for blendshapes)
    /// `face_blendshapes.bkm` — what `blaze-model convert face_landmarker.task --output-dir DIR`
    /// writes, with the detector renamed as in `Models/bkm`.
    public var baseOptions = BaseOptions()
    /// Default `.image`.
    public var runningMode: RunningMode = .image
    /// Maximum number of faces reported, in `1...maximumNumFaces` (default 1, as MediaPipe Tasks).
    public var numFaces = 1
    /// Largest accepted `numFaces`: each face costs one mesh inference (and one blendshape
    /// inference) per frame.
    public static let maximumNumFaces = 64
    /// Face detector score threshold in [0, 1]: a detection is kept iff `score >= threshold`.
    public var minFaceDetectionConfidence: Float = 0.5
    /// Face presence threshold in [0, 1] of the mesh net: a face is kept iff `presence > threshold`.
    /// In video and live stream this is also what keeps a face tracked without re-running the
    /// detector.
    public var minFacePresenceConfidence: Float = 0.5
    /// In [0, 1]. As in MediaPipe Tasks, the IoU above which a newly detected face replaces the
    /// tracked face it overlaps (video and live stream).
    public var minTrackingConfidence: Float = 0.5
    /// Also run the blendshape net: `FaceLandmarkerResult.faceBlendshapes`, 52 scores per face.
    public var outputFaceBlendshapes = false
    /// Also compute each face's 4×4 facial transformation matrix (canonical face → camera).
    public var outputFacialTransformationMatrixes = false
    /// Receives live-stream results; required in `.liveStream` mode (unless the landmarker is
    /// made with `FaceLandmarker.liveStream(options:)`) and an error in the other modes. Held
    /// **weakly**, as MediaPipe does: keep your delegate alive yourself. Called on one private
    /// serial queue, never on the main queue.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?

    // MARK: Beyond MediaPipe Tasks

    /// Threads one net inference may use (the calling thread included); `nil` = every core.
    /// Results are identical for every value.
    public var numThreads: Int?

    public init() {}
}

extension FaceLandmarkerOptions {
    /// Checks the numeric options and the delegate/mode pairing (MediaPipe's rules).
    func validate(allowsMissingDelegate: Bool) throws {
        guard (1...Self.maximumNumFaces).contains(numFaces) else { throw FaceLandmarkerError.invalidNumFaces(numFaces) }
        try TaskOptionChecks.confidences([
            "minFaceDetectionConfidence": minFaceDetectionConfidence, "minFacePresenceConfidence": minFacePresenceConfidence,
            "minTrackingConfidence": minTrackingConfidence
        ])
        try TaskOptionChecks.threads(numThreads)
        try TaskOptionChecks.delegate(
            present: faceLandmarkerLiveStreamDelegate != nil, option: "faceLandmarkerLiveStreamDelegate", runningMode: runningMode,
            allowsMissing: allowsMissingDelegate)
    }
}
