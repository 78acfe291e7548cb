import Foundation

/// MediaPipe's `RectTransformationCalculator` options (docs/pipelines.md S7): shift the centre along
/// the rect's own axes, optionally square it on its longer side (in pixels), then scale.
/// The rotation passes through unchanged.
struct RectTransformation: Sendable, Hashable {
    var scaleX: Float = 1
    var scaleY: Float = 1
    /// Shift in units of the rect's width / height (before squaring and scaling), along the
    /// rect's local axes; negative `shiftY` moves towards the rect's local "up".
    var shiftX: Float = 0
    var shiftY: Float = 0
    var squareLong: Bool = false

    /// Legacy face mesh ROI from a detection and any face mesh ROI from landmarks:
    /// scale 1.5, square_long (§4.1, S9 face).
    static let faceMesh = RectTransformation(scaleX: 1.5, scaleY: 1.5, squareLong: true)
    /// Tasks `EXPANDED_FACE_RECTS`: scale 1.5 without squaring (§3).
    static let expandedFace = RectTransformation(scaleX: 1.5, scaleY: 1.5)
    /// Palm → hand ROI: scale 2.6, shift_y −0.5, square_long (§6.2).
    static let handFromPalm = RectTransformation(scaleX: 2.6, scaleY: 2.6, shiftY: -0.5, squareLong: true)
    /// Hand landmarks → next-frame hand ROI: scale 2.0, shift_y −0.1, square_long (S9 hand).
    static let handFromLandmarks = RectTransformation(scaleX: 2, scaleY: 2, shiftY: -0.1, squareLong: true)

    /// Applies the transformation to `rect` on a W×H image (Float32, the C++ operation order).
    func apply(to rect: NormalizedRect, imageSize: ImageSize) -> NormalizedRect {
        let iw = Float(imageSize.width), ih = Float(imageSize.height)
        var out = rect
        let width = rect.width, height = rect.height, rotation = rect.rotation
        if rotation == 0 {
            out.xCenter = rect.xCenter + width * shiftX
            out.yCenter = rect.yCenter + height * shiftY
        } else {
            let c = cos(rotation), s = sin(rotation)
            let xShift = (iw * width * shiftX * c - ih * height * shiftY * s) / iw
            let yShift = (iw * width * shiftX * s + ih * height * shiftY * c) / ih
            out.xCenter = rect.xCenter + xShift
            out.yCenter = rect.yCenter + yShift
        }
        var w = width, h = height
        if squareLong {
            let longSide = max(width * iw, height * ih)
            w = longSide / iw
            h = longSide / ih
        }
        out.width = w * scaleX
        out.height = h * scaleY
        return out
    }
}
