/// The value range of the luma/chroma samples of a YUV image.
public enum YUVRange: String, Sendable, Hashable, CaseIterable {
    /// "Video" (limited, studio) range: Y in 16…235, Cb/Cr in 16…240 (BT.601). Converted with
    /// OpenCV's integer `COLOR_YUV2RGB_NV12` formula.
    case video
    /// Full range: Y, Cb, Cr in 0…255 (JPEG/JFIF). Converted with OpenCV's integer
    /// `COLOR_YCrCb2RGB` formula.
    case full
}

/// The memory layout of a `VisionImage`'s pixels.
///
/// Packed formats have one plane; the channel order is the order of the bytes in memory
/// (`.bgra8` is the usual little-endian camera buffer, `kCVPixelFormatType_32BGRA`).
/// YUV formats are 4:2:0 with chroma planes of `(width + 1) / 2 × (height + 1) / 2` samples,
/// so odd sizes are allowed; each chroma sample covers the 2×2 luma block at its top left
/// (nearest-neighbour chroma, as OpenCV's `cvtColor`).
public enum PixelFormat: Sendable, Hashable {
    case rgba8, bgra8, argb8, rgb8, bgr8, gray8
    /// Bi-planar 4:2:0: a Y plane and one interleaved Cb,Cr plane (`kCVPixelFormatType_420YpCbCr8BiPlanar…`).
    case nv12(YUVRange)
    /// Bi-planar 4:2:0 with Cr,Cb order in the chroma plane (Android camera default).
    case nv21(YUVRange)
    /// Tri-planar 4:2:0: Y, then Cb (U), then Cr (V) planes (YUV4MPEG2 `C420*`).
    case i420(YUVRange)

    /// Every format, both ranges of the YUV ones (for tests and tools).
    public static let allFormats: [PixelFormat] = [
        .rgba8, .bgra8, .argb8, .rgb8, .bgr8, .gray8,
        .nv12(.video), .nv12(.full), .nv21(.video), .nv21(.full), .i420(.video), .i420(.full)
    ]

    /// Number of planes: 1 for packed formats, 2 for NV12/NV21, 3 for I420.
    public var planeCount: Int {
        switch self {
        case .rgba8, .bgra8, .argb8, .rgb8, .bgr8, .gray8: 1
        case .nv12, .nv21: 2
        case .i420: 3
        }
    }

    /// Bytes per pixel of a packed format; 1 (the luma plane) for YUV formats.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8, .argb8: 4
        case .rgb8, .bgr8: 3
        case .gray8, .nv12, .nv21, .i420: 1
        }
    }

    /// True for the YUV formats.
    public var isYUV: Bool { planeCount > 1 }

    /// True when the format carries an alpha channel.
    public var hasAlpha: Bool {
        switch self {
        case .rgba8, .bgra8, .argb8: true
        default: false
        }
    }

    /// Width in samples, height in rows and minimum bytes per row of plane `index` for an image
    /// of `width × height` pixels.
    public func planeGeometry(_ index: Int, width: Int, height: Int) -> (width: Int, height: Int, minBytesPerRow: Int) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        switch (self, index) {
        case (_, 0): return (width, height, width &* bytesPerPixel)
        case (.nv12, 1), (.nv21, 1): return (cw, ch, cw &* 2)
        case (.i420, 1), (.i420, 2): return (cw, ch, cw)
        default: preconditionFailure("plane \(index) does not exist for \(self)")
        }
    }

    var name: String {
        switch self {
        case .rgba8: "RGBA8"
        case .bgra8: "BGRA8"
        case .argb8: "ARGB8"
        case .rgb8: "RGB8"
        case .bgr8: "BGR8"
        case .gray8: "Gray8"
        case .nv12(let r): "NV12 (\(r.rawValue) range)"
        case .nv21(let r): "NV21 (\(r.rawValue) range)"
        case .i420(let r): "I420 (\(r.rawValue) range)"
        }
    }
}

extension PixelFormat: CustomStringConvertible {
    public var description: String { name }
}
