/// One category of a classification (MediaPipe Tasks' `ResultCategory`).
public struct ResultCategory: Sendable, Hashable {
    /// Index of the category in the model's label list (hands: 0 = "Right", 1 = "Left").
    public var index: Int
    /// Probability of this category, in [0, 1].
    public var score: Float
    public var categoryName: String?
    public var displayName: String?

    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}

/// A landmark in metric (world) coordinates, metres (MediaPipe Tasks' `Landmark`; the hand
/// model's world landmarks: origin near the hand's geometric centre, x right, y down, z with the
/// sign of image z).
public typealias Landmark = WorldLandmark

/// What `HandLandmarker` finds in one image or frame (MediaPipe Tasks' `HandLandmarkerResult`).
/// The arrays are parallel: hand `i` is `handedness[i]`, `landmarks[i]`, `worldLandmarks[i]` (and
/// `trackingIDs[i]` in video / live stream), in pipeline order.
public struct HandLandmarkerResult: Sendable, Hashable {
    /// Per hand, one category: index 0 "Right" or index 1 "Left" — the person's real hand on an
    /// unmirrored image (MediaPipe Tasks convention; see `HandLandmarkerOptions.mirrored`).
    public var handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks (`HandLandmark` order) normalized to the **upright** image: `x / W`,
    /// `y / H` (may fall slightly outside [0, 1]); `z` is depth relative to the wrist in the scale
    /// of `x` (smaller = closer to the camera).
    public var landmarks: [[NormalizedLandmark]]
    /// Per hand, 21 landmarks in metres around the hand's approximate geometric centre.
    public var worldLandmarks: [[Landmark]]
    /// The timestamp of the frame (0 in image mode).
    public var timestampInMilliseconds: Int
    /// Beyond MediaPipe: per hand, an ID that stays with the hand while it is tracked across
    /// frames and is never reused (video and live stream; empty in image mode).
    public var trackingIDs: [Int]

    public init(
        handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]],
        timestampInMilliseconds: Int, trackingIDs: [Int] = []
    ) {
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.timestampInMilliseconds = timestampInMilliseconds
        self.trackingIDs = trackingIDs
    }

    /// No hands.
    public static func empty(timestampInMilliseconds: Int = 0) -> HandLandmarkerResult {
        HandLandmarkerResult(handedness: [], landmarks: [], worldLandmarks: [], timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Landmark indices of the hand model (MediaPipe's `HandLandmark`). The thumb has CMC, MCP, IP
/// and tip; every finger has MCP, PIP, DIP and tip.
public enum HandLandmark: Int, Sendable, Hashable, CaseIterable {
    case wrist = 0
    case thumbCMC, thumbMCP, thumbIP, thumbTip
    case indexFingerMCP, indexFingerPIP, indexFingerDIP, indexFingerTip
    case middleFingerMCP, middleFingerPIP, middleFingerDIP, middleFingerTip
    case ringFingerMCP, ringFingerPIP, ringFingerDIP, ringFingerTip
    case pinkyMCP, pinkyPIP, pinkyDIP, pinkyTip

    /// MediaPipe's name, e.g. `INDEX_FINGER_TIP`.
    public var mediaPipeName: String {
        let names = [
            "WRIST", "THUMB_CMC", "THUMB_MCP", "THUMB_IP", "THUMB_TIP",
            "INDEX_FINGER_MCP", "INDEX_FINGER_PIP", "INDEX_FINGER_DIP", "INDEX_FINGER_TIP",
            "MIDDLE_FINGER_MCP", "MIDDLE_FINGER_PIP", "MIDDLE_FINGER_DIP", "MIDDLE_FINGER_TIP",
            "RING_FINGER_MCP", "RING_FINGER_PIP", "RING_FINGER_DIP", "RING_FINGER_TIP",
            "PINKY_MCP", "PINKY_PIP", "PINKY_DIP", "PINKY_TIP"
        ]
        return names[rawValue]
    }
}

/// Counters of the work a `HandLandmarker` did (beyond MediaPipe; for tests and benchmarks).
public struct HandLandmarkerStatistics: Sendable, Hashable {
    /// Images / frames processed (dropped live-stream frames not counted).
    public var framesProcessed = 0
    /// Times the palm detector ran. In video / live stream it is skipped while `numHands` hands
    /// are tracked, so a tracked frame costs one landmark net per hand.
    public var palmDetectionRuns = 0
    /// Hand landmark net runs.
    public var landmarkRuns = 0
    /// Live-stream frames ignored because another frame was being processed.
    public var droppedFrames = 0

    public init() {}
}

/// The result of one live-stream frame, as delivered by `HandLandmarker.liveStream(options:)`'s
/// `AsyncStream` (the delegate gets the same in its arguments).
public typealias HandLandmarkerLiveStreamResult = LiveStreamResult<HandLandmarkerResult, HandLandmarkerError>

/// Receives live-stream results (MediaPipe Tasks' `HandLandmarkerLiveStreamDelegate`).
///
/// Called on one private serial queue of the landmarker, in timestamp order, once per frame that
/// `detectAsync` accepted (frames dropped because the landmarker was busy get no call). Conformers
/// must be `Sendable` (e.g. a final class whose state is behind a lock, or an actor-isolated
/// class with a `nonisolated` implementation that hops to its actor).
public protocol HandLandmarkerLiveStreamDelegate: AnyObject, Sendable {
    /// `result` is nil exactly when `error` is set; a frame without hands gives an empty result.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
