/// A landmark in normalized coordinates: `x`, `y` divided by the width / height of the image
/// (or of the tensor before projection); `z` is relative depth in the same scale as `x`
/// (negative = closer to the camera). Never clamped.
public struct NormalizedLandmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float
    /// Likelihood that the landmark is visible (not occluded) in the image, in [0, 1], as in
    /// MediaPipe's `NormalizedLandmark.visibility`; nil when the model does not estimate it. The
    /// hand and face landmark models do not, so their landmarks have nil here (MediaPipe leaves the
    /// field unset for them too).
    public var visibility: Float?
    /// Likelihood that the landmark is present in the image (inside the frame), in [0, 1], as in
    /// MediaPipe's `NormalizedLandmark.presence`; nil when the model does not estimate it (hands
    /// and faces).
    public var presence: Float?

    public init(x: Float, y: Float, z: Float = 0, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}

/// A metric landmark in metres (the hand model's world landmarks): origin near the hand's
/// geometric centre, x right, y down, z with the sign of image z (docs/pipelines.md §6.4).
public struct WorldLandmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float
    /// As `NormalizedLandmark.visibility` (MediaPipe's `Landmark.visibility`): nil for hands.
    public var visibility: Float?
    /// As `NormalizedLandmark.presence` (MediaPipe's `Landmark.presence`): nil for hands.
    public var presence: Float?

    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}
