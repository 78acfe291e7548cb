/// Bounds-checked little-endian reads and overflow-reporting offset arithmetic for the zip
/// reader. Every read returns nil instead of trapping when it would leave the buffer.
enum ZipBytes {
    /// `a + b`, or nil on overflow.
    @inline(__always)
    static func add(_ a: Int, _ b: Int) -> Int? {
        let (r, o) = a.addingReportingOverflow(b)
        return o ? nil : r
    }

    /// `a - b`, or nil on overflow.
    @inline(__always)
    static func subtract(_ a: Int, _ b: Int) -> Int? {
        let (r, o) = a.subtractingReportingOverflow(b)
        return o ? nil : r
    }

    /// `a * b`, or nil on overflow.
    @inline(__always)
    static func multiply(_ a: Int, _ b: Int) -> Int? {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        return o ? nil : r
    }

    /// True when `count` bytes starting at `offset` lie inside `bytes`.
    @inline(__always)
    static func contains(_ bytes: [UInt8], _ offset: Int, count: Int) -> Bool {
        guard offset >= 0, count >= 0, let end = add(offset, count) else { return false }
        return end <= bytes.count
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
        guard contains(bytes, offset, count: 2) else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard contains(bytes, offset, count: 4) else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// `count` bytes at `offset` as a string (lossy UTF-8), or nil when out of bounds.
    static func string(_ bytes: [UInt8], _ offset: Int, count: Int) -> String? {
        guard contains(bytes, offset, count: count) else { return nil }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    /// Hex formatting for signatures and CRCs in messages.
    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - s.count)) + s
    }
}
