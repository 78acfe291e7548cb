/// What `GestureRecognizer` finds in one image or frame (MediaPipe Tasks' `GestureRecognizerResult`).
/// The arrays are parallel: hand `i` is `gestures[i]`, `handedness[i]`, `landmarks[i]`,
/// `worldLandmarks[i]` (and `trackingIDs[i]` in video), in the hand landmarker's order.
public struct GestureRecognizerResult: Sendable, Hashable {
    /// Per hand, the recognized gesture: one category with MediaPipe's fields (index -1, the
    /// label as `categoryName` — empty for a classifier without labels, as Google's canned one in
    /// Model Maker bundles — and an empty `displayName`). Empty for a hand no classifier kept a
    /// category for (a score threshold or allow list left none). MediaPipe drops such a hand's
    /// entry instead, which misaligns its arrays, and reports no hands at all when no hand has a
    /// gesture; here every hand the landmarker found stays.
    public var gestures: [[ResultCategory]]
    /// Per hand, "Right" (index 0) or "Left" (index 1), as `HandLandmarkerResult.handedness`.
    public var handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks normalized to the upright image (`HandLandmarkerResult.landmarks`).
    public var landmarks: [[NormalizedLandmark]]
    /// Per hand, 21 landmarks in metres (`HandLandmarkerResult.worldLandmarks`).
    public var worldLandmarks: [[Landmark]]
    /// The timestamp of the frame (0 in image mode).
    public var timestampInMilliseconds: Int
    /// Beyond MediaPipe: per hand, a tracking ID in video mode (empty in image mode).
    public var trackingIDs: [Int]

    public init(
        gestures: [[ResultCategory]], handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]],
        worldLandmarks: [[Landmark]], timestampInMilliseconds: Int, trackingIDs: [Int] = []
    ) {
        self.gestures = gestures
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.timestampInMilliseconds = timestampInMilliseconds
        self.trackingIDs = trackingIDs
    }
}

/// One live-stream frame's outcome, as the `AsyncStream` of `GestureRecognizer.liveStream(options:)`
/// yields it.
public typealias GestureRecognizerLiveStreamResult = LiveStreamResult<GestureRecognizerResult, GestureRecognizerError>

/// Receives live-stream results (MediaPipe Tasks' `GestureRecognizerLiveStreamDelegate`).
public protocol GestureRecognizerLiveStreamDelegate: AnyObject, Sendable {
    /// `result` is nil exactly when `error` is set; a frame without hands gives an empty result.
    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, didFinishRecognition result: GestureRecognizerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
