import BlazeEngine
import Foundation

/// An image handed to the detectors: `width × height` pixels in one of the `PixelFormat`s, plus
/// the `orientation` that turns the stored pixels upright.
///
/// **Memory.** A `VisionImage` either *owns* its pixels (the `copying:` and `width:height:format:`
/// initializers, and every decoder) or *borrows* the caller's memory without copying
/// (`borrowing:` initializers). Lifetime rule for borrowed memory: the caller keeps it allocated
/// and unmodified for as long as this value **or any copy of it** is alive — including copies
/// captured by an asynchronous call that has not completed yet. Use `ownedCopy()` to detach.
///
/// Owned images are copy-on-write through `withUnsafeMutablePlanes`; otherwise a `VisionImage` is
/// immutable and safe to share between threads.
///
/// Pixel coordinates: origin at the top-left of the stored pixels, pixel centres at integers.
/// Detectors see the image through `orientation` and report results in the **upright** image's
/// coordinates (`uprightWidth × uprightHeight`) — unlike MediaPipe Tasks' `rotationDegrees`
/// option (docs/pipelines.md §6.8), whose results are in the stored image's coordinates.
public struct VisionImage: Sendable {
    public typealias Orientation = ImageOrientation

    /// Stored width in pixels (before `orientation`).
    public let width: Int
    /// Stored height in pixels (before `orientation`).
    public let height: Int
    public let format: PixelFormat
    /// How to turn the stored pixels upright (UIKit meaning; `.up` by default).
    public var orientation: ImageOrientation
    @usableFromInline var storage: PixelStorage

    /// Bytes between the starts of two rows of the first plane.
    public var bytesPerRow: Int { storage.planes[0].bytesPerRow }
    /// Bytes between rows of plane `index` (0 = the packed pixels or the luma plane).
    public func bytesPerRow(plane index: Int) -> Int { storage.planes[index].bytesPerRow }
    /// Width of the upright image (`height` when the orientation turns the image by ±90°).
    public var uprightWidth: Int { orientation.swapsWidthAndHeight ? height : width }
    /// Height of the upright image.
    public var uprightHeight: Int { orientation.swapsWidthAndHeight ? width : height }
    /// Stored size in pixels (before `orientation`).
    public var size: ImageSize { ImageSize(width: width, height: height) }
    /// Size of the upright image: the one every result's coordinates refer to.
    public var uprightSize: ImageSize { ImageSize(width: uprightWidth, height: uprightHeight) }
    /// True when the pixels live in caller memory (see the lifetime rule above).
    public var isBorrowed: Bool { !storage.isOwned }

    /// A new owned image with zeroed pixels, tightly packed (fill it with `withUnsafeMutablePlanes`).
    /// At most `maxOwnedPixelCount` pixels.
    public init(width: Int, height: Int, format: PixelFormat, orientation: ImageOrientation = .up) throws {
        try Self.validateSize(width: width, height: height, format: format)
        guard width * height <= Self.maxOwnedPixelCount else {
            throw BlazeError(.invalidInput, "image of \(width)×\(height) pixels exceeds \(Self.maxOwnedPixelCount) pixels")
        }
        self.width = width
        self.height = height
        self.format = format
        self.orientation = orientation
        storage = PixelStorage(width: width, height: height, format: format)
    }

    /// Borrows one contiguous buffer without copying (see the lifetime rule).
    ///
    /// Packed formats: `height` rows of `bytesPerRow` bytes. YUV formats: the Y plane
    /// (`height` rows of `bytesPerRow`), directly followed by the chroma plane(s) of
    /// `(height + 1) / 2` rows each: one CbCr/CrCb plane with `bytesPerRow` per row (NV12/NV21), or
    /// a U then a V plane with `(bytesPerRow + 1) / 2` per row (I420). An NV12/NV21 image of odd
    /// width packed tightly (`bytesPerRow == width`) has chroma rows of `width + 1` bytes (one
    /// CbCr pair per two columns, the last column's pair included), as FFmpeg's
    /// `av_image_copy_to_buffer` with alignment 1 lays it out.
    /// A buffer too short for that layout, or a row shorter than the pixels, is a typed error.
    public init(
        borrowing bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat, orientation: ImageOrientation = .up
    ) throws {
        let planes = try Self.contiguousPlanes(bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        try self.init(borrowingPlanes: planes, width: width, height: height, format: format, orientation: orientation)
    }

    /// Borrows separate planes (e.g. a camera's bi-planar buffer) without copying. `planes.count`
    /// must equal `format.planeCount`.
    public init(
        borrowingPlanes planes: [ImagePlane], width: Int, height: Int, format: PixelFormat,
        orientation: ImageOrientation = .up
    ) throws {
        try Self.validateSize(width: width, height: height, format: format)
        guard planes.count == format.planeCount else {
            throw BlazeError(.invalidInput, "\(format) needs \(format.planeCount) plane(s), got \(planes.count)")
        }
        var refs: [PlaneRef] = []
        for (index, plane) in planes.enumerated() {
            let needed = try Self.requiredBytes(plane: index, width: width, height: height, bytesPerRow: plane.bytesPerRow, format: format)
            guard let base = plane.bytes.baseAddress, plane.bytes.count >= needed else {
                throw BlazeError(.invalidInput, "plane \(index) of a \(width)×\(height) \(format) image needs \(needed) bytes, got \(plane.bytes.count)")
            }
            refs.append(PlaneRef(base: UnsafeMutableRawPointer(mutating: base), bytesPerRow: plane.bytesPerRow, byteCount: needed))
        }
        self.width = width
        self.height = height
        self.format = format
        self.orientation = orientation
        storage = PixelStorage(borrowed: refs)
    }

    /// Copies pixels laid out as for `init(borrowing:…)` into a new owned, tightly packed image.
    public init(
        copying bytes: some ContiguousBytes, width: Int, height: Int, bytesPerRow: Int? = nil,
        format: PixelFormat, orientation: ImageOrientation = .up
    ) throws {
        let stride = bytesPerRow ?? width &* format.bytesPerPixel
        let copy: VisionImage = try bytes.withUnsafeBytes { raw in
            try VisionImage(borrowing: raw, width: width, height: height, bytesPerRow: stride, format: format).ownedCopy()
        }
        self = copy
        self.orientation = orientation
    }

    /// An owned, tightly packed copy (the same value when it is already owned).
    public func ownedCopy() -> VisionImage {
        if storage.isOwned { return self }
        var copy = self
        copy.storage = PixelStorage(width: width, height: height, format: format)
        copyPixels(from: storage, to: copy.storage)
        return copy
    }

    /// Reads the planes. The buffers are valid only inside `body`.
    public func withUnsafePlanes<R>(_ body: ([ImagePlane]) throws -> R) rethrows -> R {
        try body(storage.planes.map { ImagePlane(bytes: UnsafeRawBufferPointer(start: $0.base, count: $0.byteCount), bytesPerRow: $0.bytesPerRow) })
    }

    /// Writes the planes. When the storage is borrowed or shared with another copy it is first
    /// replaced by an owned copy (copy-on-write); with `discardingContents` the old pixels are not
    /// copied (the new storage is zeroed). Readers that reuse frame buffers rely on this: when the
    /// caller has dropped the previous frame its memory is written in place.
    public mutating func withUnsafeMutablePlanes<R>(
        discardingContents: Bool = false,
        _ body: ([MutableImagePlane]) throws -> R
    ) rethrows -> R {
        if !storage.isOwned || !isKnownUniquelyReferenced(&storage) {
            let fresh = PixelStorage(width: width, height: height, format: format)
            if !discardingContents { copyPixels(from: storage, to: fresh) }
            storage = fresh
        }
        return try body(storage.planes.map { MutableImagePlane(bytes: UnsafeMutableRawBufferPointer(start: $0.base, count: $0.byteCount), bytesPerRow: $0.bytesPerRow) })
    }

    private func copyPixels(from source: PixelStorage, to destination: PixelStorage) {
        for p in 0..<format.planeCount {
            let g = format.planeGeometry(p, width: width, height: height)
            let s = source.planes[p], d = destination.planes[p]
            for row in 0..<g.height {
                (d.base + row &* d.bytesPerRow).copyMemory(from: s.base + row &* s.bytesPerRow, byteCount: g.minBytesPerRow)
            }
        }
    }
}

/// MediaPipe Tasks' name for the same type.
public typealias MPImage = VisionImage

/// One read-only plane handed to or from a `VisionImage`.
public struct ImagePlane {
    public var bytes: UnsafeRawBufferPointer
    public var bytesPerRow: Int
    public init(bytes: UnsafeRawBufferPointer, bytesPerRow: Int) {
        self.bytes = bytes
        self.bytesPerRow = bytesPerRow
    }
}

/// One writable plane of an owned `VisionImage`.
public struct MutableImagePlane {
    public var bytes: UnsafeMutableRawBufferPointer
    public var bytesPerRow: Int
}

extension VisionImage {
    /// The largest accepted side, so that offsets never overflow.
    public static let maxSide = 1 << 20
    /// The largest image this type allocates itself (1 gigapixel); decoders apply their own,
    /// smaller cap first (`ImageDecodingOptions.maxPixelCount`).
    public static let maxOwnedPixelCount = 1 << 30

    static func validateSize(width: Int, height: Int, format: PixelFormat) throws {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else {
            throw BlazeError(.invalidInput, "invalid image size \(width)×\(height) (each side must be in 1…\(maxSide))")
        }
    }

    static func requiredBytes(plane: Int, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws -> Int {
        let g = format.planeGeometry(plane, width: width, height: height)
        guard bytesPerRow >= g.minBytesPerRow, bytesPerRow <= maxSide &* 16 else {
            throw BlazeError(.invalidInput, "plane \(plane) of a \(width)×\(height) \(format) image: bytesPerRow \(bytesPerRow) is outside \(g.minBytesPerRow)…\(maxSide * 16)")
        }
        let (rows, o1) = (g.height - 1).multipliedReportingOverflow(by: bytesPerRow)
        let (total, o2) = rows.addingReportingOverflow(g.minBytesPerRow)
        guard !o1, !o2 else { throw BlazeError(.invalidInput, "image too large: \(width)×\(height)") }
        return total
    }

    static func contiguousPlanes(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat
    ) throws -> [ImagePlane] {
        try validateSize(width: width, height: height, format: format)
        let chromaRows = (height + 1) / 2
        var strides = [bytesPerRow]
        switch format {
        case .nv12, .nv21: strides.append(max(bytesPerRow, format.planeGeometry(1, width: width, height: height).minBytesPerRow))
        case .i420: strides += [(bytesPerRow + 1) / 2, (bytesPerRow + 1) / 2]
        default: break
        }
        var planes: [ImagePlane] = []
        var offset = 0
        for (p, stride) in strides.enumerated() {
            let needed = try requiredBytes(plane: p, width: width, height: height, bytesPerRow: stride, format: format)
            guard offset <= bytes.count, bytes.count - offset >= needed else {
                throw BlazeError(.invalidInput, "buffer of \(bytes.count) bytes is too short for a \(width)×\(height) \(format) image with \(bytesPerRow) bytes per row")
            }
            planes.append(ImagePlane(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset...]), bytesPerRow: stride))
            offset += stride * (p == 0 ? height : chromaRows)
        }
        return planes
    }
}
