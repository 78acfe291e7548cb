import Foundation
import BlazeEngine

/// How the crop treats samples whose bilinear neighbours fall outside the image.
public enum BorderMode: String, Sendable, Hashable, CaseIterable {
    /// Neighbours outside the image contribute 0 (OpenCV `BORDER_CONSTANT` with value 0).
    case zero
    /// Coordinates are clamped to the image (OpenCV `BORDER_REPLICATE`; MediaPipe's default).
    case replicate
}

/// Parameters of the image → tensor stage (docs/pipelines.md §S1).
public struct ImageToTensorOptions: Sendable, Hashable {
    /// Tensor width TW and height TH in pixels.
    public var width: Int
    public var height: Int
    /// Letterbox: grow the ROI around its centre to the tensor's aspect ratio instead of stretching.
    public var keepAspectRatio: Bool
    public var borderMode: BorderMode
    /// Pixel value p ∈ 0…255 becomes `p·(hi − lo)/255 + lo` (Float32).
    public var outputRange: ClosedRange<Float>

    public init(
        width: Int, height: Int, keepAspectRatio: Bool = false, borderMode: BorderMode = .replicate,
        outputRange: ClosedRange<Float> = 0...1
    ) {
        self.width = width
        self.height = height
        self.keepAspectRatio = keepAspectRatio
        self.borderMode = borderMode
        self.outputRange = outputRange
    }

    /// Number of floats of the NHWC RGB tensor (`height·width·3`).
    public var elementCount: Int { width * height * 3 }
}

/// Letterbox padding as fractions of the tensor size (§S1 step 3); 0 without `keepAspectRatio`.
public struct LetterboxPadding: Sendable, Hashable {
    public var left: Float, top: Float, right: Float, bottom: Float
    public static let zero = LetterboxPadding(left: 0, top: 0, right: 0, bottom: 0)

    public init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// Maps a normalized tensor coordinate into the unpadded content, as MediaPipe's
    /// letterbox removal: `x' = (x − left)/(1 − left − right)`, `y' = (y − top)/(1 − top − bottom)`.
    public func removing(x: Float, y: Float) -> (x: Float, y: Float) {
        ((x - left) / (1 - left - right), (y - top) / (1 - top - bottom))
    }
}

/// What the crop did, to map model outputs back to the upright image.
public struct ImageToTensorTransform: Sendable, Hashable {
    /// 4×4 row-major matrix from normalized tensor coordinates `(x/TW, y/TH)` to normalized
    /// upright image coordinates, built from the *padded* ROI (§S1 step 7, MediaPipe's
    /// `GetRotatedSubRectToRectTransformMatrix`).
    public var projection: [Float]
    public var padding: LetterboxPadding
    /// The sampled rectangle in upright image pixels, after letterboxing: centre, size, rotation.
    public var centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float

    /// `(m0·x + m1·y + m3, m4·x + m5·y + m7)`.
    public func project(x: Float, y: Float) -> (x: Float, y: Float) {
        let m = projection
        return (m[0] * x + m[1] * y + m[3], m[4] * x + m[5] * y + m[7])
    }
}

extension VisionImage {
    /// Samples the rotated rectangle `roi` (normalized, upright coordinates; nil = the whole image,
    /// unrotated) of this image into `buffer` as an NHWC RGB float tensor of
    /// `options.height × options.width × 3`, exactly as MediaPipe's ImageToTensorCalculator
    /// (CPU/OpenCV path) does: OpenCV's 1/32-pixel fixed-point bilinear interpolation with uint8
    /// rounding, then `p·(hi − lo)/255 + lo`. The orientation is folded into the same map (no
    /// rotated copy is made); YUV pixels are converted with OpenCV's integer formulas before
    /// interpolation. An unrotated ROI (the whole-image path) uses a separable map.
    ///
    /// Errors: an empty, non-positive or non-finite ROI, a tensor size outside 1…16384, or a
    /// buffer shorter than `options.elementCount`.
    @discardableResult
    public func toTensor(
        roi: NormalizedRect? = nil, options: ImageToTensorOptions,
        into buffer: UnsafeMutableBufferPointer<Float>
    ) throws -> ImageToTensorTransform {
        try toTensor(roi: roi, options: options, into: buffer, workers: nil)
    }

    /// `toTensor(roi:options:into:)` with the rows split over `workers` (a session's threads;
    /// the same values at any thread count).
    @discardableResult
    package func toTensor(
        roi: NormalizedRect?, options: ImageToTensorOptions, into buffer: UnsafeMutableBufferPointer<Float>,
        workers: WorkerPool?
    ) throws -> ImageToTensorTransform {
        let tw = options.width, th = options.height
        guard tw > 0, th > 0, tw <= 16384, th <= 16384 else {
            throw BlazeError(.invalidInput, "tensor size \(tw)×\(th) is outside 1…16384")
        }
        guard let out = buffer.baseAddress, buffer.count >= options.elementCount else {
            throw BlazeError(.invalidInput, "tensor buffer holds \(buffer.count) floats, needs \(options.elementCount)")
        }
        let lo = options.outputRange.lowerBound, hi = options.outputRange.upperBound
        guard lo.isFinite, hi.isFinite else { throw BlazeError(.invalidInput, "output range \(lo)…\(hi) is not finite") }
        let transform = try tensorTransform(roi: roi, options: options)
        withPixelSource(CropSampler(image: self, transform: transform, options: options, output: out, workers: workers))
        return transform
    }

    /// `toTensor(roi:options:into:)` into a new array.
    public func toTensor(roi: NormalizedRect? = nil, options: ImageToTensorOptions) throws
        -> (tensor: [Float], transform: ImageToTensorTransform)
    {
        var tensor = [Float](repeating: 0, count: max(0, options.width) * max(0, options.height) * 3)
        let transform = try tensor.withUnsafeMutableBufferPointer { try toTensor(roi: roi, options: options, into: $0) }
        return (tensor, transform)
    }

    /// ROI in upright pixels, letterbox and projection (§S1 steps 1–3 and 7), in Float32 like MediaPipe.
    func tensorTransform(roi: NormalizedRect?, options: ImageToTensorOptions) throws -> ImageToTensorTransform {
        let iw = Float(uprightWidth), ih = Float(uprightHeight)
        var cx: Float, cy: Float, rw: Float, rh: Float, theta: Float
        if let roi {
            guard !roi.isEmptySentinel else {
                throw BlazeError(.invalidInput, "empty ROI (width = height = 0, MediaPipe's no-tensor sentinel)")
            }
            cx = roi.xCenter * iw
            cy = roi.yCenter * ih
            rw = roi.width * iw
            rh = roi.height * ih
            theta = roi.rotation
        } else {
            (cx, cy, rw, rh, theta) = (iw / 2, ih / 2, iw, ih, 0)
        }
        guard cx.isFinite, cy.isFinite, rw.isFinite, rh.isFinite, theta.isFinite, rw > 0, rh > 0 else {
            throw BlazeError(.invalidInput, "invalid ROI: centre (\(cx), \(cy)), size \(rw)×\(rh) px, rotation \(theta)")
        }
        var padding = LetterboxPadding.zero
        if options.keepAspectRatio {
            let tensorAspect = Float(options.height) / Float(options.width)
            let roiAspect = rh / rw
            if tensorAspect > roiAspect {
                rh = rw * tensorAspect
                let v = (1.0 - roiAspect / tensorAspect) / 2.0
                padding = LetterboxPadding(left: 0, top: v, right: 0, bottom: v)
            } else {
                rw = rh / tensorAspect
                let h = (1.0 - tensorAspect / roiAspect) / 2.0
                padding = LetterboxPadding(left: h, top: 0, right: h, bottom: 0)
            }
        }
        let m = rotatedSubRectToRectMatrix(
            centerX: cx, centerY: cy, width: rw, height: rh, rotation: theta,
            imageWidth: iw, imageHeight: ih)
        return ImageToTensorTransform(projection: m, padding: padding, centerX: cx, centerY: cy, width: rw, height: rh, rotation: theta)
    }
}

/// MediaPipe's `GetRotatedSubRectToRectTransformMatrix` (docs/pipelines.md S1 step 7): the 4×4
/// row-major matrix from normalized coordinates of a rotated sub-rect (centre, size in pixels)
/// to normalized image coordinates, in the C++ Float32 operation order.
func rotatedSubRectToRectMatrix(
    centerX e: Float, centerY f: Float, width a: Float, height b: Float, rotation: Float,
    imageWidth iw: Float, imageHeight ih: Float
) -> [Float] {
    let c = cos(rotation), d = sin(rotation), g = 1 / iw, h = 1 / ih
    var m = [Float](repeating: 0, count: 16)
    m[0] = a * c * g
    m[1] = -b * d * g
    m[3] = (-0.5 * a * c + 0.5 * b * d + e) * g
    m[4] = a * d * h
    m[5] = b * c * h
    m[7] = (-0.5 * b * c - 0.5 * a * d + f) * h
    m[10] = a * g
    m[15] = 1
    return m
}
