/// Options of a `TasksFaceDetector` (MediaPipe Tasks' `FaceDetectorOptions`; the name
/// `FaceDetectorOptions` is ML Kit's here).
public struct TasksFaceDetectorOptions: Sendable {
    /// `modelAssetPath`: nil for the bundled model, or a folder holding
    /// `face_detection_short_range.bkm` (or `face_detector.bkm`, as `blaze-model convert` names
    /// the detector of `face_landmarker.task`).
    public var baseOptions = BaseOptions()
    /// Default `.image`. The Tasks face detector does not track: `.video` and `.liveStream` run
    /// the detector on every frame, and only check that timestamps increase (and, in live
    /// stream, drop frames that arrive while one is being processed).
    public var runningMode: RunningMode = .image
    /// Score threshold in [0, 1]: a detection is kept iff `score >= threshold` (default 0.5).
    public var minDetectionConfidence: Float = 0.5
    /// IoU threshold of the weighted non-max suppression, in [0, 1] (default 0.3).
    public var minSuppressionThreshold: Float = 0.3
    /// Receives live-stream results; required in `.liveStream` mode (unless the detector is
    /// made with `TasksFaceDetector.liveStream(options:)`), an error in the other modes. Held
    /// weakly: keep your delegate alive yourself.
    public weak var faceDetectorLiveStreamDelegate: (any TasksFaceDetectorLiveStreamDelegate)?
    /// Beyond MediaPipe: threads one inference may use; `nil` = every core.
    public var numThreads: Int?

    public init() {}

    func validate(allowsMissingDelegate: Bool) throws {
        try TaskOptionChecks.confidences([
            "minDetectionConfidence": minDetectionConfidence, "minSuppressionThreshold": minSuppressionThreshold
        ])
        try TaskOptionChecks.threads(numThreads)
        try TaskOptionChecks.delegate(
            present: faceDetectorLiveStreamDelegate != nil, option: "faceDetectorLiveStreamDelegate", runningMode: runningMode,
            allowsMissing: allowsMissingDelegate)
    }
}

/// A keypoint normalized to the upright image (MediaPipe Tasks' `NormalizedKeypoint`).
public struct NormalizedKeypoint: Sendable, Hashable {
    public var x: Float
    public var y: Float
    /// For faces: `rightEye`, `leftEye`, `noseTip`, `mouthCenter`, `rightEarTragion`,
    /// `leftEarTragion` (the subject's right and left).
    public var label: String?
    public var score: Float?

    public init(x: Float, y: Float, label: String? = nil, score: Float? = nil) {
        self.x = x
        self.y = y
        self.label = label
        self.score = score
    }
}

/// One detected face (MediaPipe Tasks' `Detection`).
public struct FaceDetection: Sendable, Hashable {
    /// One category: index 0, the detector's score.
    public var categories: [ResultCategory]
    /// The box in pixels of the upright image, as MediaPipe gives it: whole pixels, each of x, y,
    /// width and height clamped to the image size on its own.
    public var boundingBox: VisionRect
    /// The six face keypoints, normalized to the upright image.
    public var keypoints: [NormalizedKeypoint]

    public init(categories: [ResultCategory], boundingBox: VisionRect, keypoints: [NormalizedKeypoint]) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }
}

/// What `TasksFaceDetector` finds in one image or frame (MediaPipe Tasks' `FaceDetectorResult`):
/// detections by descending score.
public struct FaceDetectorResult: Sendable, Hashable {
    public var detections: [FaceDetection]
    /// The timestamp of the frame (0 in image mode).
    public var timestampInMilliseconds: Int

    public init(detections: [FaceDetection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

/// Receives live-stream results of a `TasksFaceDetector`, on one private serial queue, in
/// timestamp order, once per accepted frame.
public protocol TasksFaceDetectorLiveStreamDelegate: AnyObject, Sendable {
    func faceDetector(
        _ faceDetector: TasksFaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
