import BlazeEngine

extension VisionImage {
    /// A new owned image in a packed `format` (RGBA8, BGRA8, ARGB8, RGB8, BGR8 or Gray8) holding
    /// this image turned upright (orientation applied; the result is `.up`). YUV sources use the same
    /// integer formulas as the crop; gray output uses OpenCV's `COLOR_RGB2GRAY` integer weights
    /// `(4899·R + 9617·G + 1868·B + 2¹³) >> 14`; alpha is 255 when the source has none.
    public func upright(as format: PixelFormat = .rgba8) throws -> VisionImage {
        guard !format.isYUV else {
            throw BlazeError(.unsupported, "conversion to \(format) is not supported; use a packed format")
        }
        var result = try VisionImage(width: uprightWidth, height: uprightHeight, format: format)
        result.withUnsafeMutablePlanes(discardingContents: true) { planes in
            withPixelSource(
                UprightConverter(
                    map: orientation.uprightToStored(width: width, height: height),
                    width: uprightWidth, height: uprightHeight, format: format,
                    output: planes[0].bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    stride: planes[0].bytesPerRow))
        }
        return result
    }

    /// RGBA of the upright pixel `(x, y)` (slow; for tests and tools).
    public func uprightPixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && y >= 0 && x < uprightWidth && y < uprightHeight, "pixel (\(x), \(y)) outside the image")
        let p = orientation.uprightToStored(width: width, height: height).apply(x, y)
        let v = withPixelSource(SinglePixel(x: p.x, y: p.y))
        return (UInt8(v.x), UInt8(v.y), UInt8(v.z), UInt8(v.w))
    }
}

private struct SinglePixel: PixelSourceVisitor {
    let x: Int, y: Int
    func visit<S: PixelSource>(_ source: S) -> SIMD4<Int32> { source.rgba(x, y) }
}

private struct UprightConverter: PixelSourceVisitor {
    let map: OrientationTransform
    let width: Int, height: Int
    let format: PixelFormat
    let output: UnsafeMutablePointer<UInt8>
    let stride: Int

    func visit<S: PixelSource>(_ source: S) {
        // Destination byte offsets of R, G, B, A (−1 = not stored); gray handled apart.
        let (bpp, r, g, b, a): (Int, Int, Int, Int, Int) =
            switch format {
            case .rgba8: (4, 0, 1, 2, 3)
            case .bgra8: (4, 2, 1, 0, 3)
            case .argb8: (4, 1, 2, 3, 0)
            case .rgb8: (3, 0, 1, 2, -1)
            case .bgr8: (3, 2, 1, 0, -1)
            default: (1, -1, -1, -1, -1)
            }
        for y in 0..<height {
            var o = output + y &* stride
            // Stored position of (0, y) and its step per upright x.
            var sx = map.b &* y &+ map.tx, sy = map.d &* y &+ map.ty
            for _ in 0..<width {
                let p = source.rgba(sx, sy)
                if bpp == 1 {
                    o[0] = UInt8(truncatingIfNeeded: (4899 &* p.x &+ 9617 &* p.y &+ 1868 &* p.z &+ 8192) >> 14)
                } else {
                    o[r] = UInt8(truncatingIfNeeded: p.x)
                    o[g] = UInt8(truncatingIfNeeded: p.y)
                    o[b] = UInt8(truncatingIfNeeded: p.z)
                    if a >= 0 { o[a] = UInt8(truncatingIfNeeded: p.w) }
                }
                o += bpp
                sx &+= map.a
                sy &+= map.c
            }
        }
    }
}
