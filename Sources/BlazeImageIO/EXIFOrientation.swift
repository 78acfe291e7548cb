import BlazeKit

/// Finds the EXIF orientation tag (0x0112) of a JPEG: the first APP1 segment starting with
/// `Exif\0\0`, its TIFF header (`II*\0` little-endian or `MM\0*` big-endian) and IFD0.
/// Every offset is bounds-checked; anything malformed simply yields nil (no orientation).
enum EXIFOrientation {
    static func find(inJPEG bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var p = 2
        while p + 4 <= bytes.count {
            guard bytes[p] == 0xFF else { return nil }
            let marker = bytes[p + 1]
            if marker == 0xFF { p += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { p += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan / end: no EXIF before
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            guard length >= 2, p + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 8 {
                let segment = UnsafeRawBufferPointer(rebasing: bytes[(p + 4)..<(p + 2 + length)])
                if let o = parseAPP1(segment) { return o }
            }
            p += 2 + length
        }
        return nil
    }

    /// `segment` = APP1 payload after the length field.
    static func parseAPP1(_ s: UnsafeRawBufferPointer) -> ImageOrientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard s.count >= 14, Array(s[0..<6]) == exifHeader else { return nil }
        return parseTIFF(UnsafeRawBufferPointer(rebasing: s[6...]))
    }

    /// Orientation tag of IFD0 of a TIFF structure (a JPEG APP1 after `Exif\0\0`, a PNG eXIf chunk).
    static func parseTIFF(_ tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= tiff.count else { return nil }
            let a = Int(tiff[o]), b = Int(tiff[o + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return lo | hi << 16
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<count {
            let entry = ifd + 2 + 12 * i
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }
}
