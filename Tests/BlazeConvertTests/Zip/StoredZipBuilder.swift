import Foundation

/// Builds small stored (method 0) zip archives for tests, byte by byte from the PKWARE layout,
/// including layouts a normal zip tool never writes: several central-directory records that
/// point at one local entry (`duplicateCentralRecords`).
struct StoredZipBuilder {
    struct Entry {
        var name: String
        var data: [UInt8]
    }

    var entries: [Entry] = []
    /// Extra central-directory records per entry index, all pointing at that entry's local header.
    var duplicateCentralRecords: [Int: Int] = [:]

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        var records = 0
        for (i, entry) in entries.enumerated() {
            let name = Array(entry.name.utf8)
            let crc = Self.crc32(entry.data)
            let offset = out.count
            out += [0x50, 0x4B, 0x03, 0x04]
            out += Self.u16(20) + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u16(0x21)
            out += Self.u32(crc) + Self.u32(UInt32(entry.data.count)) + Self.u32(UInt32(entry.data.count))
            out += Self.u16(name.count) + Self.u16(0) + name + entry.data
            for _ in 0...(duplicateCentralRecords[i] ?? 0) {
                central += [0x50, 0x4B, 0x01, 0x02]
                central += Self.u16(20) + Self.u16(20) + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u16(0x21)
                central += Self.u32(crc) + Self.u32(UInt32(entry.data.count)) + Self.u32(UInt32(entry.data.count))
                central += Self.u16(name.count) + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u16(0)
                central += Self.u32(0) + Self.u32(UInt32(offset)) + name
                records += 1
            }
        }
        let cdOffset = out.count
        out += central
        out += [0x50, 0x4B, 0x05, 0x06] + Self.u16(0) + Self.u16(0) + Self.u16(records) + Self.u16(records)
        out += Self.u32(UInt32(central.count)) + Self.u32(UInt32(cdOffset)) + Self.u16(0)
        return out
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }

    /// CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320), bit by bit.
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
