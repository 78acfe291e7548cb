/// Where a task's model files come from (MediaPipe Tasks' `BaseOptions`).
public struct BaseOptions: Sendable, Hashable {
    /// `nil` (the default): the bundled models (`BundledModel`, which honours
    /// `BLAZEKIT_MODELS_DIR`). Otherwise a **folder** holding the converted `.bkm` files the task
    /// needs, named as in `Models/bkm` (for hands: `palm_detection_full.bkm` +
    /// `hand_landmark_full.bkm`, or the `_lite` pair). MediaPipe's `.task` / `.tflite` files are
    /// not read directly: convert them with `blaze-model convert` first.
    public var modelAssetPath: String?

    public init(modelAssetPath: String? = nil) {
        self.modelAssetPath = modelAssetPath
    }
}

/// How a task is fed (MediaPipe Tasks' `RunningMode`).
public enum RunningMode: String, Sendable, Hashable, CaseIterable {
    /// Independent photos: `detect(image:)`. Every call runs the full pipeline.
    case image
    /// Decoded video frames in order: `detect(videoFrame:timestampInMilliseconds:)`, synchronous,
    /// with tracking between frames.
    case video
    /// Camera frames: `detectAsync(image:timestampInMilliseconds:)` returns at once; results go
    /// to the live-stream delegate (or the `AsyncStream` of `HandLandmarker.liveStream`).
    case liveStream
}

/// How a hand region is rotated from a palm detection: so that the wrist → middle-finger line
/// points at a target angle.
public enum PalmRegionRotation: String, Sendable, Hashable, CaseIterable {
    /// As MediaPipe Tasks' HandLandmarker and GestureRecognizer (0.10.x): their target angle is
    /// the number 90 in a field that takes radians, which turns every hand region 26.6° past
    /// upright. Landmarks then equal theirs (to ~1e-5 of the width) and gestures use them.
    case mediaPipeTasks
    /// The intended target, 90° (π/2), as MediaPipe's legacy Hands solution: the hand upright in
    /// the landmark net's crop. Landmarks then equal legacy Hands'.
    case upright
}

/// Which pair of nets a `HandLandmarker` runs.
public enum HandModelVariant: String, Sendable, Hashable, CaseIterable {
    /// `palm_detection_full` + `hand_landmark_full` (MediaPipe Tasks' bundle; legacy
    /// `model_complexity = 1`).
    case full
    /// `palm_detection_lite` + `hand_landmark_lite` (legacy `model_complexity = 0`): faster,
    /// slightly less accurate.
    case lite
}

/// Options of a `HandLandmarker` (MediaPipe Tasks' `HandLandmarkerOptions`, as a value type:
/// `var options = HandLandmarkerOptions(); options.numHands = 2`). The landmarker keeps a copy,
/// so changing the struct afterwards has no effect on it.
public struct HandLandmarkerOptions: Sendable {
    public var baseOptions = BaseOptions()
    /// The nets to run (default `.full`, as MediaPipe Tasks).
    public var modelVariant: HandModelVariant = .full
    /// Default `.image`.
    public var runningMode: RunningMode = .image
    /// Maximum number of hands reported, in `1...maximumNumHands` (default 1, as MediaPipe Tasks).
    public var numHands = 1
    /// Largest accepted `numHands`. Each hand costs one landmark inference per frame, so an
    /// unbounded value with low confidences would let hands (and the time per frame) grow
    /// with every video frame.
    public static let maximumNumHands = 64
    /// Palm detector score threshold in [0, 1]: a palm is kept iff `score >= threshold`.
    public var minHandDetectionConfidence: Float = 0.5
    /// Hand presence threshold in [0, 1] of the landmark net: a hand is kept iff
    /// `presence > threshold`. In video and live-stream mode this is also what keeps a hand
    /// tracked without re-running the palm detector.
    public var minHandPresenceConfidence: Float = 0.5
    /// In [0, 1]. As in MediaPipe Tasks, used only as the IoU threshold that decides whether a
    /// newly detected palm is a hand already tracked (video and live stream).
    public var minTrackingConfidence: Float = 0.5
    /// Receives live-stream results; required in `.liveStream` mode (unless the landmarker is
    /// made with `HandLandmarker.liveStream(options:)`) and an error in the other modes. Held
    /// **weakly**, as MediaPipe does: keep your delegate alive yourself. Called on one private
    /// serial queue, never on the main queue.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?

    /// How a palm detection's hand region is rotated (docs/pipelines.md §6.2). The default,
    /// `.mediaPipeTasks`, gives MediaPipe Tasks' landmarks; `.upright` gives legacy Hands' (the
    /// hand upright in the landmark net's crop, as the rotation was meant).
    public var palmRegionRotation: PalmRegionRotation = .mediaPipeTasks

    // MARK: Beyond MediaPipe Tasks

    /// For selfie (front-camera) buffers tagged `.up` that are mirror images of the scene: swaps
    /// the handedness name **and** index (Right/0 ↔ Left/1) but not the score, so "Right" still
    /// means the person's real right hand. Not needed for images whose orientation already says
    /// they are mirrored (`.upMirrored` …): those are un-mirrored before the nets see them.
    public var mirrored = false
    /// One-Euro smoothing of the (image) landmarks in `.video` and `.liveStream` mode, per tracked
    /// hand, with `smoothingParameters` (docs/pipelines.md S12). Lowers frame-to-frame jitter; the first
    /// frame of a hand is returned unchanged. Tracking uses the unsmoothed landmarks, so the hands
    /// found are the same with and without it. Ignored in `.image` mode.
    public var smoothLandmarks = false
    /// One-Euro constants; default MediaPipe Tasks FaceLandmarker's (min_cutoff 0.05, beta 80,
    /// derivate_cutoff 1).
    public var smoothingParameters: LandmarkSmoothingOptions = .faceLandmarker
    /// Threads one net inference may use (the calling thread included); `nil` = every core.
    /// Results are identical for every value.
    public var numThreads: Int?

    public init() {}
}

extension HandLandmarkerOptions {
    /// Checks the numeric options and the delegate/mode pairing (MediaPipe's rules).
    func validate(allowsMissingDelegate: Bool) throws {
        guard (1...Self.maximumNumHands).contains(numHands) else { throw HandLandmarkerError.invalidNumHands(numHands) }
        try TaskOptionChecks.confidences([
            "minHandDetectionConfidence": minHandDetectionConfidence, "minHandPresenceConfidence": minHandPresenceConfidence,
            "minTrackingConfidence": minTrackingConfidence
        ])
        try TaskOptionChecks.threads(numThreads)
        let p = smoothingParameters
        guard p.minCutoff.isFinite, p.minCutoff > 0, p.beta.isFinite, p.beta >= 0,
            p.derivateCutoff.isFinite, p.derivateCutoff > 0
        else {
            throw HandLandmarkerError.invalidOption("smoothingParameters need minCutoff > 0, beta ≥ 0 and derivateCutoff > 0 (finite)")
        }
        try TaskOptionChecks.delegate(
            present: handLandmarkerLiveStreamDelegate != nil, option: "handLandmarkerLiveStreamDelegate", runningMode: runningMode,
            allowsMissing: allowsMissingDelegate)
    }
}
