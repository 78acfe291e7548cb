/// How the stored pixels must be turned to show the image upright, with the meaning (and raw
/// values) of UIKit's `UIImage.Orientation`.
///
/// `.right`: the displayed image is the stored one rotated 90° clockwise (EXIF 6, the usual
/// portrait photo of a phone camera); `.left`: rotated 90° counter-clockwise (EXIF 8); `.down`:
/// 180°. The mirrored cases flip the stored image horizontally before that rotation
/// (`.leftMirrored` = transpose, EXIF 5; `.rightMirrored` = transverse, EXIF 7). Example: a photo
/// stored turned 90° clockwise (`derived_astronaut_rot90cw.png`) is upright when tagged `.left`.
///
/// Detectors work in the **upright** image: results are in upright coordinates, and the
/// upright width/height are `VisionImage.uprightWidth/uprightHeight`. (MediaPipe Tasks'
/// `rotationDegrees` option instead reports coordinates of the stored image.)
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 0, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored

    /// The EXIF/TIFF orientation tag value (1…8) with the same meaning.
    public var exifValue: Int {
        switch self {
        case .up: 1
        case .upMirrored: 2
        case .down: 3
        case .downMirrored: 4
        case .leftMirrored: 5
        case .right: 6
        case .rightMirrored: 7
        case .left: 8
        }
    }

    /// The orientation of an EXIF/TIFF orientation tag value; nil outside 1…8.
    public init?(exifValue: Int) {
        guard let o = ImageOrientation.allCases.first(where: { $0.exifValue == exifValue }) else { return nil }
        self = o
    }

    /// True when the upright image is the stored one turned by ±90° (width and height swap).
    public var swapsWidthAndHeight: Bool {
        switch self {
        case .left, .right, .leftMirrored, .rightMirrored: true
        default: false
        }
    }

    /// True for the four mirrored orientations.
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: true
        default: false
        }
    }

    /// The integer map from upright pixel coordinates to stored pixel coordinates for a stored
    /// image of `width × height` pixels (pixel centres at integers).
    public func uprightToStored(width: Int, height: Int) -> OrientationTransform {
        let w1 = width - 1, h1 = height - 1
        switch self {
        case .up: return OrientationTransform(a: 1, b: 0, tx: 0, c: 0, d: 1, ty: 0)
        case .upMirrored: return OrientationTransform(a: -1, b: 0, tx: w1, c: 0, d: 1, ty: 0)
        case .down: return OrientationTransform(a: -1, b: 0, tx: w1, c: 0, d: -1, ty: h1)
        case .downMirrored: return OrientationTransform(a: 1, b: 0, tx: 0, c: 0, d: -1, ty: h1)
        case .leftMirrored: return OrientationTransform(a: 0, b: 1, tx: 0, c: 1, d: 0, ty: 0)
        case .right: return OrientationTransform(a: 0, b: 1, tx: 0, c: -1, d: 0, ty: h1)
        case .rightMirrored: return OrientationTransform(a: 0, b: -1, tx: w1, c: -1, d: 0, ty: h1)
        case .left: return OrientationTransform(a: 0, b: -1, tx: w1, c: 1, d: 0, ty: 0)
        }
    }
}

/// `stored = (a·x + b·y + tx, c·x + d·y + ty)` for upright pixel `(x, y)`; `a…d ∈ {−1, 0, 1}`.
/// Because it is an integer map of pixel centres, applying it to OpenCV-style 1/32-pixel
/// fixed-point coordinates (scaled by 32, `tx`/`ty` too) commutes exactly with bilinear
/// interpolation: sampling the stored image through it equals sampling the rotated copy.
public struct OrientationTransform: Sendable, Hashable {
    public var a: Int, b: Int, tx: Int
    public var c: Int, d: Int, ty: Int

    @inline(__always)
    public func apply(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
        (a &* x &+ b &* y &+ tx, c &* x &+ d &* y &+ ty)
    }
}
