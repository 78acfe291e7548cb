import BlazeEngine
import BlazeKit
import Foundation

/// Limits and behaviour of the decoders.
public struct ImageDecodingOptions: Sendable, Hashable {
    /// Largest accepted `width × height`, checked against the file header **before** any pixel
    /// memory is allocated (default 100 megapixels). Larger images are a `.invalidInput` error.
    public var maxPixelCount: Int = 100_000_000
    /// Sets `VisionImage.orientation` from a JPEG's EXIF orientation tag (default true). The pixels
    /// are never rotated: the orientation is applied by the crop.
    public var appliesEXIFOrientation: Bool = true

    public init(maxPixelCount: Int = 100_000_000, appliesEXIFOrientation: Bool = true) {
        self.maxPixelCount = maxPixelCount
        self.appliesEXIFOrientation = appliesEXIFOrientation
    }

    func checkSize(width: Int, height: Int, format: String) throws {
        guard width > 0, height > 0 else {
            throw BlazeError(.invalidInput, "\(format) header has an empty size \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelCount, width <= VisionImage.maxSide, height <= VisionImage.maxSide else {
            throw BlazeError(.invalidInput, "\(format) image of \(width)×\(height) pixels exceeds the limit of \(maxPixelCount) pixels")
        }
    }
}

/// The image file formats BlazeImageIO reads and writes.
public enum ImageFileFormat: String, Sendable, CaseIterable {
    case jpeg, png
    /// Netpbm PGM/PPM (P2, P3, P5, P6); read only.
    case pnm

    /// The format of a file from its first bytes; nil when unknown.
    public static func detect(_ prefix: some Collection<UInt8>) -> ImageFileFormat? {
        let b = Array(prefix.prefix(8))
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 8, b == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if b.count >= 2, b[0] == UInt8(ascii: "P"), [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "5"), UInt8(ascii: "6")].contains(b[1]) {
            return .pnm
        }
        return nil
    }

    /// The format named by a file extension (`jpg`, `jpeg`, `png`, `pgm`, `ppm`, `pnm`).
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "pgm", "ppm", "pnm": self = .pnm
        default: return nil
        }
    }
}

/// Reading and writing image files.
///
/// Decoded pixels equal OpenCV's `imread(IMREAD_COLOR | IMREAD_IGNORE_ORIENTATION)` in their colour
/// channels; the pixel format is the file's natural one (`.rgb8`, `.rgba8` when the file has
/// alpha, `.gray8` for grayscale files without alpha). A JPEG's EXIF orientation becomes
/// `VisionImage.orientation`. Every malformed, truncated or oversized input is a `BlazeError`
/// (`.invalidInput`, or `.unsupported`), never a crash.
public enum ImageFile {
    /// Decodes a JPEG, PNG or PGM/PPM file held in memory.
    public static func decode(_ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> VisionImage {
        try data.withUnsafeBytes { raw in
            switch ImageFileFormat.detect(raw) {
            case .jpeg: try JPEGCodec.decode(raw, options: options)
            case .png: try PNGCodec.decode(raw, options: options)
            case .pnm: try PNMCodec.decode(raw, options: options)
            case nil: throw BlazeError(.invalidInput, "not a JPEG, PNG or PGM/PPM file (\(raw.count) bytes)")
            }
        }
    }

    /// Reads and decodes a file; errors carry the path as context.
    public static func read(contentsOf url: URL, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> VisionImage {
        try read(path: url.path, options: options)
    }

    /// Reads and decodes the file at `path` (also a pipe or FIFO); errors carry `path`, as given,
    /// as their context.
    public static func read(path: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> VisionImage {
        let data = try FileDescriptorIO.readFile(path: path, kind: "an image file")
        do {
            return try decode(data, options: options)
        } catch let error as BlazeError {
            throw error.within(path)
        }
    }

    public static func pngData(_ image: VisionImage) throws -> Data {
        try PNGCodec.encode(image)
    }

    /// Encodes `image` turned upright as a baseline JPEG (4:2:0, or grayscale for Gray8).
    /// `quality` 1…100; alpha is dropped.
    public static func jpegData(_ image: VisionImage, quality: Int = 90) throws -> Data {
        try JPEGCodec.encode(image, quality: quality)
    }

    /// Writes `image` as PNG or JPEG, chosen by the file extension (`.png`, `.jpg`/`.jpeg`).
    public static func write(_ image: VisionImage, to url: URL, jpegQuality: Int = 90) throws {
        let data: Data
        switch ImageFileFormat(fileExtension: url.pathExtension) {
        case .png: data = try pngData(image)
        case .jpeg: data = try jpegData(image, quality: jpegQuality)
        default: throw BlazeError(.invalidInput, "cannot tell the image format from the extension '.\(url.pathExtension)' (use .png, .jpg or .jpeg)", context: url.path)
        }
        // Atomic, and only over a regular file (OutputFiles).
        try OutputFiles.write([UInt8](data), to: url, origin: "the image")
    }
}

extension VisionImage {
    /// Decodes the image file at `path` (JPEG, PNG, PGM/PPM) with `ImageFile.read`.
    public init(contentsOfFile path: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws {
        self = try ImageFile.read(path: path, options: options)
    }
}
