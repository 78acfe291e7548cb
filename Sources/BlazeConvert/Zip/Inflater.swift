import BlazeEngine

/// A raw deflate (RFC 1951) decoder: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Hostile-safe: every input read is bounds-checked (running out of input is an error, never a
/// read past the buffer), the output is written into a buffer of exactly the declared size and
/// producing more or fewer bytes is an error, and invalid block types, over-subscribed or
/// incomplete Huffman codes, invalid symbols and distances reaching before the start of the
/// output all throw `BlazeError(.corruptModel, …)`.
enum Inflater {
    /// Decompresses the raw deflate stream in `input` (no zlib or gzip wrapper) into exactly
    /// `expectedSize` bytes. Bytes after the final block are ignored.
    static func inflate(_ input: UnsafeBufferPointer<UInt8>, expectedSize: Int) throws -> [UInt8] {
        guard expectedSize >= 0, expectedSize <= ZipArchive.maximumEntrySize else {
            throw BlazeError(.unsupported, "declared size \(expectedSize) is outside 0…\(ZipArchive.maximumEntrySize) bytes")
        }
        guard let inputBase = input.baseAddress, !input.isEmpty else {
            throw BlazeError(.corruptModel, "the deflate stream is empty (a valid stream has at least one block)")
        }
        let scratch = InflateScratch()
        defer { scratch.deallocate() }
        return try [UInt8](unsafeUninitializedCapacity: max(expectedSize, 1)) { buffer, initialized in
            var state = InflateState(
                input: inputBase, inputCount: input.count,
                output: buffer.baseAddress!, capacity: expectedSize, scratch: scratch)
            try state.run()
            initialized = state.outPos
        }
    }
}

/// Working memory of one inflate call: two Huffman tables, the code-length buffer and the
/// length/distance base tables, all in one allocation so the hot loop only touches pointers.
struct InflateScratch {
    static let fastBits = 10
    static let fastSize = 1 << fastBits
    // UInt16 layout: [lit fast | lit count 16 | lit symbol 288 | dist fast | dist count 16 |
    //                 dist symbol 32 | lenBase 29 | lenExtra 29 | distBase 30 | distExtra 30]
    static let total = fastSize + 16 + 288 + fastSize + 16 + 32 + 29 + 29 + 30 + 30

    let words: UnsafeMutablePointer<UInt16>
    let lengths: UnsafeMutablePointer<UInt8>  // 286 + 30 code lengths (and the 19 of the header)

    init() {
        words = .allocate(capacity: Self.total)
        words.initialize(repeating: 0, count: Self.total)
        lengths = .allocate(capacity: 320)
        lengths.initialize(repeating: 0, count: 320)
        let t = Self.tablesOffset
        for i in 0 ..< 29 {
            words[t + i] = Self.lengthBase[i]
            words[t + 29 + i] = Self.lengthExtra[i]
        }
        for i in 0 ..< 30 {
            words[t + 58 + i] = Self.distanceBase[i]
            words[t + 88 + i] = Self.distanceExtra[i]
        }
    }

    func deallocate() {
        words.deallocate()
        lengths.deallocate()
    }

    static let tablesOffset = total - 118

    var literal: HuffmanTable { HuffmanTable(fast: words, count: words + Self.fastSize, symbol: words + Self.fastSize + 16) }
    var distance: HuffmanTable {
        let base = words + Self.fastSize + 16 + 288
        return HuffmanTable(fast: base, count: base + Self.fastSize, symbol: base + Self.fastSize + 16)
    }

    // RFC 1951 §3.2.5.
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
        35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [UInt16] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
        257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt16] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// Order in which the code-length code's lengths are sent (§3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
