/// CRC-32 as zip, zlib and PNG use it (ISO-HDLC: reflected polynomial 0xEDB88320, initial value
/// and final XOR 0xFFFFFFFF). Table-driven, eight bytes per step ("slicing-by-8").
enum ZipCRC32 {
    /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for b in 0..<256 {
            var c = UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[b] = c
        }
        for k in 1..<8 {
            for b in 0..<256 {
                let prev = t[(k - 1) * 256 + b]
                t[k * 256 + b] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// The CRC-32 of `bytes`, continuing from `crc` (the CRC of earlier bytes, 0 to start).
    static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum(UnsafeRawBufferPointer($0), continuing: crc) }
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        tables.withUnsafeBufferPointer { tp in
            let t = tp.baseAddress!
            var c = ~crc
            var i = 0
            let n = bytes.count
            guard let p = bytes.baseAddress else { return crc }
            while i &+ 8 <= n {
                let lo = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt32.self)) ^ c
                let hi = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i &+ 4, as: UInt32.self))
                c =
                    t[7 &* 256 &+ Int(lo & 0xFF)] ^ t[6 &* 256 &+ Int((lo >> 8) & 0xFF)]
                    ^ t[5 &* 256 &+ Int((lo >> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(lo >> 24)]
                    ^ t[3 &* 256 &+ Int(hi & 0xFF)] ^ t[2 &* 256 &+ Int((hi >> 8) & 0xFF)]
                    ^ t[1 &* 256 &+ Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i &+= 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(p.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)] ^ (c >> 8)
                i &+= 1
            }
            return ~c
        }
    }
}
