import BlazeEngine
import BlazeKit
import CPNG
import Foundation

/// PNG through libpng's simplified API (`png_image_begin_read_from_memory`,
/// `png_image_finish_read`, `png_image_write_to_memory`), which reports errors by return value
/// (the classic API needs `setjmp`).
///
/// To reproduce OpenCV's `imread` exactly:
/// - colour-management chunks (gAMA, sRGB, iCCP, cHRM) are neutralised before decoding (renamed to
///   a private ancillary chunk with a fresh CRC, see `PNGChunks`), because the simplified API would
///   otherwise gamma-convert samples that OpenCV passes through unchanged;
/// - 16-bit files are read in the 16-bit *linear* formats (no gamma conversion) and keep the high
///   byte, as OpenCV's `png_set_strip_16`. With alpha, libpng returns 16-bit linear samples
///   premultiplied by alpha; they are un-premultiplied (rounded) before taking the high byte, which
///   can differ from OpenCV by one level where 256 ≤ alpha < 65535, and loses the colour where
///   alpha < 256, i.e. where the 8-bit alpha is 0 (OpenCV keeps it).
/// Palette, 1/2/4-bit gray, tRNS and interlaced files are expanded by libpng. An `eXIf` chunk's
/// orientation becomes `VisionImage.orientation`, as for JPEG.
enum PNGCodec {
    // png.h format flags (the composite macros do not import into Swift).
    static let alphaFlag: UInt32 = 0x01, colorFlag: UInt32 = 0x02, linearFlag: UInt32 = 0x04

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> VisionImage {
        var image: VisionImage
        if let cleaned = PNGChunks.neutralizingColorManagement(bytes) {
            image = try cleaned.withUnsafeBytes { try decodeRaw($0, options: options) }
        } else {
            image = try decodeRaw(bytes, options: options)
        }
        if options.appliesEXIFOrientation, let o = PNGChunks.exifOrientation(bytes) { image.orientation = o }
        return image
    }

    private static func decodeRaw(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> VisionImage {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        guard png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count) != 0 else {
            throw BlazeError(.invalidInput, "corrupt PNG: \(message(&png))")
        }
        let w = Int(png.width), h = Int(png.height)
        try options.checkSize(width: w, height: h, format: "PNG")
        let hasAlpha = png.format & alphaFlag != 0
        let hasColor = png.format & colorFlag != 0
        let sixteen = png.format & linearFlag != 0
        let format: PixelFormat = hasAlpha ? .rgba8 : (hasColor ? .rgb8 : .gray8)
        var image = try VisionImage(width: w, height: h, format: format)
        if !sixteen {
            // 8 bits: read straight into the image (gray+alpha expanded to RGBA by libpng).
            png.format = hasAlpha ? colorFlag | alphaFlag : (hasColor ? colorFlag : 0)
            try image.withUnsafeMutablePlanes { planes in
                guard png_image_finish_read(&png, nil, planes[0].bytes.baseAddress, Int32(planes[0].bytesPerRow), nil) != 0 else {
                    throw BlazeError(.invalidInput, "corrupt or truncated PNG data: \(message(&png))")
                }
            }
            return image
        }
        // 16 bits: linear 16-bit read, then the high byte.
        let channels = (hasColor ? 3 : 1) + (hasAlpha ? 1 : 0)
        png.format = linearFlag | (hasColor ? colorFlag : 0) | (hasAlpha ? alphaFlag : 0)
        let (count, overflow) = (w * channels).multipliedReportingOverflow(by: h)
        guard !overflow else { throw BlazeError(.invalidInput, "PNG too large") }
        var wide = [UInt16](repeating: 0, count: count)
        try wide.withUnsafeMutableBytes { buffer in
            guard png_image_finish_read(&png, nil, buffer.baseAddress, Int32(w * channels), nil) != 0 else {
                throw BlazeError(.invalidInput, "corrupt or truncated PNG data: \(message(&png))")
            }
        }
        image.withUnsafeMutablePlanes { planes in
            let out = planes[0].bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let stride = planes[0].bytesPerRow
            wide.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    for x in 0..<w {
                        let s = (y * w + x) * channels
                        let d = out + y * stride + x * format.bytesPerPixel
                        if !hasAlpha {
                            for c in 0..<channels { d[c] = UInt8(src[s + c] >> 8) }
                            continue
                        }
                        let a = UInt32(src[s + channels - 1])
                        for c in 0..<3 {
                            let p = UInt32(src[s + (hasColor ? c : 0)])
                            let straight = a == 0 ? 0 : min(65535, (p * 65535 + a / 2) / a)
                            d[c] = UInt8(straight >> 8)
                        }
                        d[3] = UInt8(a >> 8)
                    }
                }
            }
        }
        return image
    }

    static func encode(_ image: VisionImage) throws -> Data {
        let source: VisionImage
        switch (image.format, image.orientation) {
        case (.rgb8, .up), (.rgba8, .up), (.gray8, .up): source = image
        case (.gray8, _): source = try image.upright(as: .gray8)
        default: source = try image.upright(as: image.format.hasAlpha ? .rgba8 : .rgb8)
        }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(source.width)
        png.height = UInt32(source.height)
        png.format =
            switch source.format {
            case .rgba8: colorFlag | alphaFlag
            case .rgb8: colorFlag
            default: 0
            }
        defer { png_image_free(&png) }
        return try source.withUnsafePlanes { planes in
            let pixels = planes[0].bytes.baseAddress
            let stride = Int32(planes[0].bytesPerRow)
            var size = 0
            guard png_image_write_to_memory(&png, nil, &size, 0, pixels, stride, nil) != 0, size > 0 else {
                throw BlazeError(.io, "PNG encoding failed: \(message(&png))")
            }
            var data = Data(count: size)
            let ok = data.withUnsafeMutableBytes { out in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels, stride, nil)
            }
            guard ok != 0 else { throw BlazeError(.io, "PNG encoding failed: \(message(&png))") }
            data.count = size
            return data
        }
    }

    private static func message(_ png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { raw in
            let chars = raw.prefix { $0 != 0 }
            return String(decoding: chars, as: UTF8.self)
        }
    }
}

/// Walks a PNG's chunk list before decoding.
enum PNGChunks {
    /// The orientation tag of an `eXIf` chunk (which OpenCV's `imread` applies too), if any.
    static func exifOrientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var p = 8
        while p + 12 <= bytes.count {
            let length = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            guard length <= bytes.count - p - 12 else { return nil }
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            if type == "IEND" { return nil }
            if type == "eXIf" { return EXIFOrientation.parseTIFF(UnsafeRawBufferPointer(rebasing: bytes[(p + 8)..<(p + 8 + length)])) }
            p += 12 + length
        }
        return nil
    }

    /// A copy of `bytes` whose gAMA, sRGB, iCCP and cHRM chunks are renamed to the private
    /// ancillary type `blKc` (with a recomputed CRC) so that libpng ignores them, or nil when there
    /// are none (or the chunk list is malformed; libpng then reports the error).
    static func neutralizingColorManagement(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let targets: Set<String> = ["gAMA", "sRGB", "iCCP", "cHRM"]
        var positions: [Int] = []
        var p = 8
        while p + 12 <= bytes.count {
            let length = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }
            guard length <= bytes.count - p - 12 else { break }
            if targets.contains(type) { positions.append(p) }
            p += 12 + length
        }
        guard !positions.isEmpty else { return nil }
        var copy = [UInt8](bytes)
        for p in positions {
            let length = Int(copy[p]) << 24 | Int(copy[p + 1]) << 16 | Int(copy[p + 2]) << 8 | Int(copy[p + 3])
            copy.replaceSubrange((p + 4)..<(p + 8), with: Array("blKc".utf8))
            let crc = CRC32.checksum(copy[(p + 4)..<(p + 8 + length)])
            copy.replaceSubrange(
                (p + 8 + length)..<(p + 12 + length),
                with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        }
        return copy
    }
}

/// CRC-32 (ISO 3309 / PNG), table-driven.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
