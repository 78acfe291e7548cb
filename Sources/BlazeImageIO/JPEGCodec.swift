import BlazeEngine
import BlazeKit
import CTurboJPEG
import Foundation

/// JPEG through TurboJPEG's return-code API (`tjDecompressHeader3`, `tjDecompress2`,
/// `tjCompress2`); libjpeg's classic error handler would need `setjmp`, which Swift cannot use.
/// Decoding uses TurboJPEG's defaults (accurate integer IDCT, fancy upsampling), which is what
/// OpenCV's `imread` does: the photos of the test set decode to identical pixels.
enum JPEGCodec {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> VisionImage {
        guard let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 2 else {
            throw BlazeError(.invalidInput, "empty JPEG data")
        }
        guard let handle = tjInitDecompress() else { throw BlazeError(.io, "TurboJPEG: cannot create a decompressor") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        if tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) != 0 {
            // A benign warning (an unknown JFIF revision, stray bytes before a marker) still leaves
            // a complete header, as OpenCV's reader accepts it.
            let text = message(handle)
            guard isBenignWarning(text), width > 0, height > 0 else {
                throw BlazeError(.invalidInput, "truncated or corrupt JPEG header: \(text)")
            }
        }
        guard width > 0, height > 0 else {
            throw BlazeError(.invalidInput, "truncated or corrupt JPEG: no frame header (SOF marker with the image size) in its \(bytes.count) bytes")
        }
        let w = Int(width), h = Int(height)
        try options.checkSize(width: w, height: h, format: "JPEG")
        let orientation = options.appliesEXIFOrientation ? (EXIFOrientation.find(inJPEG: bytes) ?? .up) : .up
        let flags = Int32(TJFLAG_LIMITSCANS)  // refuse progressive files with > 500 scans (CPU bomb)

        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            var cmyk = try VisionImage(width: w, height: h, format: .rgba8)
            try cmyk.withUnsafeMutablePlanes { planes in
                try decompress(handle, source, bytes.count, planes[0], w, h, Int32(TJPF_CMYK.rawValue), flags)
            }
            return try cmykToRGB(cmyk, orientation: orientation)
        }
        let gray = colorspace == Int32(TJCS_GRAY.rawValue)
        var image = try VisionImage(width: w, height: h, format: gray ? .gray8 : .rgb8, orientation: orientation)
        try image.withUnsafeMutablePlanes { planes in
            try decompress(
                handle, source, bytes.count, planes[0], w, h,
                Int32(gray ? TJPF_GRAY.rawValue : TJPF_RGB.rawValue), flags)
        }
        return image
    }

    private static func decompress(
        _ handle: tjhandle, _ source: UnsafePointer<UInt8>, _ size: Int, _ plane: MutableImagePlane,
        _ w: Int, _ h: Int, _ pixelFormat: Int32, _ flags: Int32
    ) throws {
        let dst = plane.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if tjDecompress2(handle, source, UInt(size), dst, Int32(w), Int32(plane.bytesPerRow), Int32(h), pixelFormat, flags) != 0 {
            let text = message(handle)
            if !isBenignWarning(text) { throw BlazeError(.invalidInput, "corrupt or truncated JPEG data: \(text)") }
        }
    }

    /// libjpeg warnings that leave a complete image, accepted as OpenCV accepts them. Everything
    /// else is an error — in particular a premature end of data (a truncated file must not become
    /// a grey-filled image). The message is the *last* one libjpeg emitted; `tjGetErrorCode` cannot
    /// be used to tell warnings from errors because it reports TJERR_WARNING for a fatal error that
    /// follows any warning (e.g. "Bogus Huffman table" after the end-of-data warning).
    static func isBenignWarning(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.contains("premature end") { return false }
        return (lower.hasPrefix("corrupt jpeg data:") && lower.contains("extraneous bytes"))
            || lower.hasPrefix("unknown adobe color transform")
            || lower.hasPrefix("warning: unknown jfif revision")
    }

    /// OpenCV's `icvCvt_CMYK2BGR_8u_C4C3R` on the (Adobe-inverted) CMYK samples:
    /// `c' = k − ((255 − c)·k >> 8)`, the same for m and y; R = c', G = m', B = y'.
    private static func cmykToRGB(_ cmyk: VisionImage, orientation: ImageOrientation) throws -> VisionImage {
        var rgb = try VisionImage(width: cmyk.width, height: cmyk.height, format: .rgb8, orientation: orientation)
        rgb.withUnsafeMutablePlanes { out in
            cmyk.withUnsafePlanes { inp in
                for y in 0..<cmyk.height {
                    let s = inp[0].bytes.baseAddress! + y * inp[0].bytesPerRow
                    let d = out[0].bytes.baseAddress! + y * out[0].bytesPerRow
                    for x in 0..<cmyk.width {
                        let k = Int(s.load(fromByteOffset: 4 * x + 3, as: UInt8.self))
                        for c in 0..<3 {
                            let v = Int(s.load(fromByteOffset: 4 * x + c, as: UInt8.self))
                            d.storeBytes(of: UInt8(clamping: k - (((255 - v) * k) >> 8)), toByteOffset: 3 * x + c, as: UInt8.self)
                        }
                    }
                }
            }
        }
        return rgb
    }

    static func encode(_ image: VisionImage, quality: Int) throws -> Data {
        guard (1...100).contains(quality) else { throw BlazeError(.invalidInput, "JPEG quality \(quality) is outside 1…100") }
        let source: VisionImage
        let pixelFormat: TJPF, subsampling: TJSAMP
        switch (image.format, image.orientation) {
        case (.gray8, .up): (source, pixelFormat, subsampling) = (image, TJPF_GRAY, TJSAMP_GRAY)
        case (.rgb8, .up): (source, pixelFormat, subsampling) = (image, TJPF_RGB, TJSAMP_420)
        case (.bgr8, .up): (source, pixelFormat, subsampling) = (image, TJPF_BGR, TJSAMP_420)
        case (.rgba8, .up): (source, pixelFormat, subsampling) = (image, TJPF_RGBX, TJSAMP_420)
        case (.bgra8, .up): (source, pixelFormat, subsampling) = (image, TJPF_BGRX, TJSAMP_420)
        case (.gray8, _): (source, pixelFormat, subsampling) = (try image.upright(as: .gray8), TJPF_GRAY, TJSAMP_GRAY)
        default: (source, pixelFormat, subsampling) = (try image.upright(as: .rgb8), TJPF_RGB, TJSAMP_420)
        }
        guard let handle = tjInitCompress() else { throw BlazeError(.io, "TurboJPEG: cannot create a compressor") }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let jpeg { tjFree(jpeg) } }
        let status = source.withUnsafePlanes { planes in
            tjCompress2(
                handle, planes[0].bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(source.width),
                Int32(planes[0].bytesPerRow), Int32(source.height), Int32(pixelFormat.rawValue), &jpeg, &size,
                Int32(subsampling.rawValue), Int32(quality), 0)
        }
        guard status == 0, let jpeg else { throw BlazeError(.io, "JPEG encoding failed: \(message(handle))") }
        return Data(bytes: jpeg, count: Int(size))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
