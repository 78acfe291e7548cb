import BlazeEngine

/// The decoder's state: input bit reader, output cursor, tables. Lives for one inflate call.
struct InflateState {
    let input: UnsafePointer<UInt8>
    let inputCount: Int
    /// Next input byte to load into `bitBuffer`.
    var pos = 0
    /// Unread bits, least significant first. Bits above `bitCount` may hold the following input
    /// bytes (the 8-byte refill loads ahead) or zeros; table look-ups may peek at them, but a
    /// code or field is only accepted when all its bits are below `bitCount`.
    var bitBuffer: UInt64 = 0
    var bitCount = 0

    let out: UnsafeMutablePointer<UInt8>
    let outCap: Int
    var outPos = 0

    let literal: HuffmanTable
    let distance: HuffmanTable
    let lengths: UnsafeMutablePointer<UInt8>
    let lengthBase: UnsafeMutablePointer<UInt16>
    let lengthExtra: UnsafeMutablePointer<UInt16>
    let distanceBase: UnsafeMutablePointer<UInt16>
    let distanceExtra: UnsafeMutablePointer<UInt16>

    init(input: UnsafePointer<UInt8>, inputCount: Int, output: UnsafeMutablePointer<UInt8>, capacity: Int, scratch: InflateScratch) {
        self.input = input
        self.inputCount = inputCount
        self.out = output
        self.outCap = capacity
        self.literal = scratch.literal
        self.distance = scratch.distance
        self.lengths = scratch.lengths
        let t = scratch.words + InflateScratch.tablesOffset
        lengthBase = t
        lengthExtra = t + 29
        distanceBase = t + 58
        distanceExtra = t + 88
    }

    /// Offset of the input byte holding the next unread bit, for messages.
    var inputOffset: Int { pos - bitCount / 8 }

    func corrupt(_ message: String) -> BlazeError {
        BlazeError(.corruptModel, "\(message) (input byte \(inputOffset), output byte \(outPos))")
    }

    var truncated: BlazeError {
        BlazeError(.corruptModel, "the deflate stream is truncated: it needs more than its \(inputCount) bytes (output byte \(outPos) of \(outCap))")
    }

    var tooLong: BlazeError {
        corrupt("the deflate data produces more than the declared \(outCap) bytes")
    }

    // MARK: Bits

    /// Tops `bitBuffer` up to at least 56 bits, or to all remaining input.
    @inline(__always)
    mutating func refill() {
        if pos <= inputCount &- 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(input + pos).loadUnaligned(as: UInt64.self))
            bitBuffer |= word &<< UInt64(bitCount)
            let n = (63 &- bitCount) &>> 3
            pos &+= n
            bitCount &+= n &<< 3
        } else {
            while bitCount <= 56, pos < inputCount {
                bitBuffer |= UInt64(input[pos]) &<< UInt64(bitCount)
                pos &+= 1
                bitCount &+= 8
            }
        }
    }

    @inline(__always)
    mutating func consume(_ n: Int) {
        bitBuffer &>>= UInt64(n)
        bitCount &-= n
    }

    /// The next `n` (0…32) bits as an integer, first bit least significant.
    @inline(__always)
    mutating func bits(_ n: Int) throws -> Int {
        if bitCount < n {
            refill()
            guard bitCount >= n else { throw truncated }
        }
        let v = Int(truncatingIfNeeded: bitBuffer) & ((1 &<< n) &- 1)
        consume(n)
        return v
    }

    /// The next Huffman-coded symbol of `table`.
    @inline(__always)
    mutating func decode(_ table: HuffmanTable) throws -> Int {
        if bitCount < 15 { refill() }
        let entry = Int(table.fast[Int(truncatingIfNeeded: bitBuffer) & (InflateScratch.fastSize &- 1)])
        let length = entry & 15
        if length != 0, length <= bitCount {
            consume(length)
            return entry &>> 4
        }
        return try decodeSlow(table)
    }

    /// Canonical decoding one bit at a time (codes longer than the fast table, incomplete
    /// codes, and the end of the input).
    mutating func decodeSlow(_ table: HuffmanTable) throws -> Int {
        var bitsLeft = bitBuffer
        var code = 0, first = 0, index = 0
        for length in 1 ... 15 {
            code |= Int(bitsLeft & 1)
            bitsLeft >>= 1
            let count = Int(table.count[length])
            if code - first < count {
                guard length <= bitCount else { throw truncated }
                consume(length)
                return Int(table.symbol[index + code - first])
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        if bitCount < 15 { throw truncated }
        throw corrupt("invalid Huffman code")
    }
}
