import BlazeEngine
import BlazeKit

/// Netpbm PGM/PPM: binary P5/P6 and ASCII P2/P3, maxval 1…65535.
///
/// Like OpenCV's `imread` (the project's reference decode), samples are **not** rescaled by
/// maxval: with maxval ≤ 255 the byte values are used as they are, and 16-bit samples
/// (maxval > 255, big-endian) keep their high byte. A sample above maxval is an error.
enum PNMCodec {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> VisionImage {
        var cursor = Cursor(bytes: bytes, position: 2)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw BlazeError(.invalidInput, "not a PGM/PPM file") }
        let kind = bytes[1]
        let color = kind == UInt8(ascii: "3") || kind == UInt8(ascii: "6")
        let binary = kind == UInt8(ascii: "5") || kind == UInt8(ascii: "6")
        let width = try cursor.number("width"), height = try cursor.number("height"), maxval = try cursor.number("maxval")
        guard (1...65535).contains(maxval) else { throw BlazeError(.invalidInput, "PGM/PPM maxval \(maxval) is outside 1…65535") }
        try options.checkSize(width: width, height: height, format: "PGM/PPM")
        let channels = color ? 3 : 1
        let bytesPerSample = maxval > 255 ? 2 : 1
        let samples = width * height * channels
        var image = try VisionImage(width: width, height: height, format: color ? .rgb8 : .gray8)
        if binary {
            // Exactly one whitespace byte separates maxval from the samples.
            guard cursor.position < bytes.count, Cursor.isSpace(bytes[cursor.position]) else {
                throw BlazeError(.invalidInput, "PGM/PPM header is not followed by whitespace")
            }
            let start = cursor.position + 1
            guard bytes.count - start >= samples * bytesPerSample else {
                throw BlazeError(.invalidInput, "truncated PGM/PPM: \(bytes.count - start) bytes of pixel data, \(samples * bytesPerSample) needed")
            }
            try image.withUnsafeMutablePlanes { planes in
                let out = planes[0].bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for i in 0..<samples {
                    let v = bytesPerSample == 1 ? Int(bytes[start + i]) : Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1])
                    guard v <= maxval else { throw BlazeError(.invalidInput, "PGM/PPM sample \(v) exceeds maxval \(maxval)") }
                    out[i] = UInt8(bytesPerSample == 1 ? v : v >> 8)
                }
            }
        } else {
            try image.withUnsafeMutablePlanes { planes in
                let out = planes[0].bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for i in 0..<samples {
                    let v = try cursor.number("sample")
                    guard v <= maxval else { throw BlazeError(.invalidInput, "PGM/PPM sample \(v) exceeds maxval \(maxval)") }
                    out[i] = UInt8(bytesPerSample == 1 ? v : v >> 8)
                }
            }
        }
        return image
    }

    struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position: Int

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

        /// Skips whitespace and `#` comments, then reads a decimal number (at most 9 digits).
        mutating func number(_ what: String) throws -> Int {
            while position < bytes.count {
                if Cursor.isSpace(bytes[position]) {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
                } else {
                    break
                }
            }
            var value = 0, digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                digits += 1
                position += 1
                guard digits <= 9 else { throw BlazeError(.invalidInput, "PGM/PPM \(what) has too many digits") }
            }
            guard digits > 0 else { throw BlazeError(.invalidInput, "PGM/PPM: expected the \(what), found \(position < bytes.count ? "a non-digit" : "the end of the file")") }
            return value
        }
    }
}
