import BlazeEngine

/// A canonical Huffman code: a `2^fastBits` lookup table for short codes
/// (`symbol << 4 | length`, 0 = not there) plus counts per length and symbols in canonical
/// order for the bit-by-bit path.
struct HuffmanTable {
    let fast: UnsafeMutablePointer<UInt16>
    let count: UnsafeMutablePointer<UInt16>  // 16
    let symbol: UnsafeMutablePointer<UInt16>  // up to 288

    /// Builds the code from `n` code lengths (0…15; 0 = symbol unused). Returns the unused
    /// part of the code space in units of 2^-15 (0 when the code is complete); throws when the
    /// lengths are over-subscribed.
    func build(lengths: UnsafePointer<UInt8>, count n: Int) throws -> Int {
        for i in 0 ..< 16 { count[i] = 0 }
        for s in 0 ..< n { count[Int(lengths[s] & 15)] += 1 }
        var left = 1
        for length in 1 ... 15 {
            left <<= 1
            left -= Int(count[length])
            if left < 0 {
                throw BlazeError(.corruptModel, "over-subscribed Huffman code (\(n) code lengths)")
            }
        }
        var offsets = [Int](repeating: 0, count: 16)
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1 ..< 16 {
            if length < 15 { offsets[length + 1] = offsets[length] + Int(count[length]) }
            code = (code + (length == 1 ? 0 : Int(count[length - 1]))) << 1
            nextCode[length] = code
        }
        fast.update(repeating: 0, count: InflateScratch.fastSize)
        for s in 0 ..< n {
            let length = Int(lengths[s] & 15)
            guard length != 0 else { continue }
            symbol[offsets[length]] = UInt16(s)
            offsets[length] += 1
            let c = nextCode[length]
            nextCode[length] += 1
            guard length <= InflateScratch.fastBits else { continue }
            var reversed = 0
            for b in 0 ..< length where c & (1 << b) != 0 { reversed |= 1 << (length - 1 - b) }
            let entry = UInt16(s << 4 | length)
            var i = reversed
            while i < InflateScratch.fastSize {
                fast[i] = entry
                i += 1 << length
            }
        }
        return left
    }
}
