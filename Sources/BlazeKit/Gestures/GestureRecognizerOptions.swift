/// Options of a `GestureRecognizer` (MediaPipe Tasks' `GestureRecognizerOptions`, as a value type).
/// The recognizer keeps a copy.
public struct GestureRecognizerOptions: Sendable {
    /// `nil` (the default): the bundled canned gestures (Google's embedder and canned classifier,
    /// its 8 classes named as MediaPipe documents them: `None`, `Closed_Fist`, `Open_Palm`,
    /// `Pointing_Up`, `Thumb_Down`, `Thumb_Up`, `Victory`, `ILoveYou`). Otherwise a folder holding
    /// a converted gesture bundle (`blaze-model convert bundle.task --output-dir DIR`):
    /// `gesture_embedder.bkm`, `canned_gesture_classifier.bkm` and, for a Model Maker bundle,
    /// `custom_gesture_classifier.bkm`, with the bundle's hand nets (`hand_detector.bkm`,
    /// `hand_landmarks_detector.bkm`) or without them (the bundled hand nets are the same files).
    /// A bundle's classifiers are used as MediaPipe uses them: their own labels, or empty names.
    public var baseOptions = BaseOptions()
    /// `.image` (`recognize(image:)`), `.video` (`recognize(videoFrame:timestampInMilliseconds:)`)
    /// or `.liveStream` (`recognizeAsync(image:timestampInMilliseconds:)`, results to the delegate
    /// or the `AsyncStream` of `GestureRecognizer.liveStream(options:)`).
    public var runningMode: RunningMode = .image
    /// Maximum number of hands, in `1...HandLandmarkerOptions.maximumNumHands` (default 1).
    public var numHands = 1
    /// Palm detector score threshold, in [0, 1].
    public var minHandDetectionConfidence: Float = 0.5
    /// Hand presence score threshold of the landmark net, in [0, 1].
    public var minHandPresenceConfidence: Float = 0.5
    /// In `.video`: how much a tracked hand must overlap a new detection to keep following it.
    public var minTrackingConfidence: Float = 0.5
    /// Which of the canned classifier's categories count (its score threshold, allow and deny
    /// lists, max results). Google's canned classifier has no labels in Model Maker bundles, so
    /// allow and deny lists are an error for it.
    public var cannedGesturesClassifierOptions = ClassifierOptions()
    /// The same for a Model Maker bundle's custom classifier (its default score threshold is
    /// the model's own, 0.5 for Model Maker's).
    public var customGesturesClassifierOptions = ClassifierOptions()
    /// Receives live-stream results; required in `.liveStream` mode (unless the recognizer is made
    /// with `GestureRecognizer.liveStream(options:)`) and an error in the other modes. Held
    /// **weakly**, as MediaPipe does. Called on one private serial queue, in timestamp order.
    public weak var gestureRecognizerLiveStreamDelegate: (any GestureRecognizerLiveStreamDelegate)?

    // MARK: Beyond MediaPipe Tasks (as HandLandmarkerOptions)

    /// Selfie buffers tagged `.up` that are mirror images (see `HandLandmarkerOptions.mirrored`).
    public var mirrored = false
    /// Worker threads per call; nil: every core.
    public var numThreads: Int?

    public init() {}

    /// The hand landmarker's options for these (its models from `folder` when it holds them).
    func handLandmarkerOptions(handModelFolder: String?) -> HandLandmarkerOptions {
        var o = HandLandmarkerOptions()
        o.baseOptions.modelAssetPath = handModelFolder
        // Live stream frames reach the hand landmarker one at a time, in order: its video mode.
        o.runningMode = runningMode == .image ? .image : .video
        o.numHands = numHands
        o.minHandDetectionConfidence = minHandDetectionConfidence
        o.minHandPresenceConfidence = minHandPresenceConfidence
        o.minTrackingConfidence = minTrackingConfidence
        o.mirrored = mirrored
        o.numThreads = numThreads
        return o
    }
}

extension GestureRecognizerOptions {
    /// The delegate/mode pairing (MediaPipe's rule); the rest is checked by the parts that use it.
    func validateDelegate(allowsMissingDelegate: Bool) throws {
        try TaskOptionChecks.delegate(
            present: gestureRecognizerLiveStreamDelegate != nil, option: "gestureRecognizerLiveStreamDelegate", runningMode: runningMode,
            allowsMissing: allowsMissingDelegate)
    }
}

/// What a `GestureRecognizer` throws: `TasksError`.
public typealias GestureRecognizerError = TasksError
