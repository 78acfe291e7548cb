/// One plane of pixel memory: a base address and the distance between rows.
@usableFromInline
struct PlaneRef {
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let bytesPerRow: Int
    /// Bytes from `base` that belong to the plane (`(rows − 1)·bytesPerRow + minBytesPerRow`).
    @usableFromInline let byteCount: Int
}

/// The memory behind a `VisionImage`: either allocated and owned here, or borrowed from the caller
/// (then `allocation` is nil and the caller keeps it alive and unchanged, see `VisionImage`).
///
/// `@unchecked Sendable`: the pixels are only written while the storage is uniquely referenced
/// (`VisionImage.withUnsafeMutablePlanes`) or before the image is created; shared storage is read-only.
@usableFromInline
final class PixelStorage: @unchecked Sendable {
    @usableFromInline let planes: [PlaneRef]
    let allocation: UnsafeMutableRawPointer?

    /// Borrowed planes.
    init(borrowed planes: [PlaneRef]) {
        self.planes = planes
        allocation = nil
    }

    /// Newly allocated, zero-filled, tightly packed planes (each starting on a 64-byte boundary).
    init(width: Int, height: Int, format: PixelFormat) {
        var offsets: [Int] = []
        var total = 0
        var geometry: [(Int, Int)] = []
        for p in 0..<format.planeCount {
            let g = format.planeGeometry(p, width: width, height: height)
            offsets.append(total)
            let bytes = g.minBytesPerRow &* g.height
            geometry.append((g.minBytesPerRow, bytes))
            total = (total &+ bytes &+ 63) & ~63
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(total, 1))
        allocation = memory
        planes = zip(offsets, geometry).map { PlaneRef(base: memory + $0.0, bytesPerRow: $0.1.0, byteCount: $0.1.1) }
    }

    var isOwned: Bool { allocation != nil }

    deinit { allocation?.deallocate() }
}
