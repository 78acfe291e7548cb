/// A landmark in normalized coordinates: `x`, `y` divided by the width / height of the image
/// (or of the tensor before projection); `z` is relative depth in the same scale as `x`
/// (negative = closer to the camera). Never clamped.
public struct NormalizedLandmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float

    public init(x: Float, y: Float, z: Float = 0) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A metric landmark in metres (the hand model's world landmarks): origin near the hand's
/// geometric centre, x right, y down, z with the sign of image z (docs/pipelines.md §6.4).
public struct WorldLandmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float

    public init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }
}
