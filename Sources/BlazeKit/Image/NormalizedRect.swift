/// A rotated rectangle in normalized coordinates of the **upright** image (MediaPipe's
/// `NormalizedRect`): centre and size divided by the upright width W and height H, rotation in
/// radians, positive = clockwise on screen (docs/pipelines.md §1.1). A rect that is square in pixels
/// has `width·W == height·H`.
public struct NormalizedRect: Sendable, Hashable {
    public var xCenter: Float
    public var yCenter: Float
    public var width: Float
    public var height: Float
    public var rotation: Float

    public init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float = 0) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The whole image, unrotated.
    public static let fullImage = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)

    /// MediaPipe's "no ROI" sentinel (`width == 0 && height == 0`, §S1 step 2): such a rect yields
    /// no tensor and the model is not run. `VisionImage.toTensor` rejects it; skip it before.
    public var isEmptySentinel: Bool { width == 0 && height == 0 }
}
