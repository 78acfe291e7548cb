import BlazeEngine

/// Block decoding (RFC 1951 §3.2.3–3.2.7).
extension InflateState {
    mutating func run() throws {
        while true {
            let final = try bits(1)
            let type = try bits(2)
            switch type {
            case 0: try storedBlock()
            case 1:
                try buildFixedTables()
                try huffmanBlock()
            case 2:
                try buildDynamicTables()
                try huffmanBlock()
            default:
                throw corrupt("invalid block type 3")
            }
            if final == 1 { break }
        }
        guard outPos == outCap else {
            throw corrupt("the deflate stream ends after \(outPos) bytes, but \(outCap) were declared")
        }
    }

    mutating func storedBlock() throws {
        consume(bitCount & 7)  // to a byte boundary
        pos -= bitCount >> 3  // give back whole buffered bytes: read the header from the input
        bitCount = 0
        bitBuffer = 0
        guard inputCount - pos >= 4 else { throw truncated }
        let length = Int(input[pos]) | Int(input[pos + 1]) << 8
        let complement = Int(input[pos + 2]) | Int(input[pos + 3]) << 8
        guard length == ~complement & 0xFFFF else {
            throw corrupt("stored block length \(length) does not match its complement \(complement)")
        }
        pos += 4
        guard length <= inputCount - pos else { throw truncated }
        guard length <= outCap - outPos else { throw tooLong }
        (out + outPos).update(from: input + pos, count: length)
        pos += length
        outPos += length
    }

    mutating func buildFixedTables() throws {
        for i in 0 ..< 144 { lengths[i] = 8 }
        for i in 144 ..< 256 { lengths[i] = 9 }
        for i in 256 ..< 280 { lengths[i] = 7 }
        for i in 280 ..< 288 { lengths[i] = 8 }
        _ = try literal.build(lengths: lengths, count: 288)
        for i in 0 ..< 32 { lengths[i] = 5 }
        _ = try distance.build(lengths: lengths, count: 32)
    }

    mutating func buildDynamicTables() throws {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw corrupt("dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)")
        }
        for i in 0 ..< 19 { lengths[i] = 0 }
        for i in 0 ..< codeLengthCount {
            lengths[InflateScratch.codeLengthOrder[i]] = UInt8(try bits(3))
        }
        // The literal table's storage holds the code-length code until the real one is built.
        guard try literal.build(lengths: lengths, count: 19) == 0 else {
            throw corrupt("incomplete code-length code in a dynamic block header")
        }
        let total = literalCount + distanceCount
        var i = 0
        while i < total {
            let symbol = try decode(literal)
            if symbol < 16 {
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            }
            var value: UInt8 = 0
            let repeatCount: Int
            switch symbol {
            case 16:
                guard i > 0 else { throw corrupt("code length repeat (16) with no previous length") }
                value = lengths[i - 1]
                repeatCount = 3 + (try bits(2))
            case 17: repeatCount = 3 + (try bits(3))
            default: repeatCount = 11 + (try bits(7))
            }
            guard repeatCount <= total - i else {
                throw corrupt("code length repeat runs past the \(total) declared lengths")
            }
            for k in i ..< i + repeatCount { lengths[k] = value }
            i += repeatCount
        }
        guard lengths[256] != 0 else { throw corrupt("dynamic block has no end-of-block code") }
        // An incomplete code is only allowed when it has at most one code, of length 1 (zlib).
        let literalLeft = try literal.build(lengths: lengths, count: literalCount)
        if literalLeft != 0, Int(literal.count[0]) + Int(literal.count[1]) != literalCount {
            throw corrupt("incomplete literal/length code in a dynamic block")
        }
        let distanceLeft = try distance.build(lengths: lengths + literalCount, count: distanceCount)
        if distanceLeft != 0, Int(distance.count[0]) + Int(distance.count[1]) != distanceCount {
            throw corrupt("incomplete distance code in a dynamic block")
        }
    }

    /// Decodes literal/length and distance symbols until end-of-block. The hot loop.
    mutating func huffmanBlock() throws {
        let literalFast = literal.fast
        let mask = InflateScratch.fastSize &- 1
        while true {
            if bitCount < 32 { refill() }
            var symbol: Int
            let entry = Int(literalFast[Int(truncatingIfNeeded: bitBuffer) & mask])
            let codeLength = entry & 15
            if codeLength != 0, codeLength <= bitCount {
                consume(codeLength)
                symbol = entry &>> 4
            } else {
                symbol = try decodeSlow(literal)
            }
            if symbol < 256 {
                guard outPos < outCap else { throw tooLong }
                out[outPos] = UInt8(truncatingIfNeeded: symbol)
                outPos &+= 1
                continue
            }
            symbol &-= 257
            if symbol < 0 { return }  // 256: end of block
            guard symbol < 29 else { throw corrupt("invalid literal/length symbol \(symbol + 257)") }
            let length = Int(lengthBase[symbol]) &+ (try bits(Int(lengthExtra[symbol])))
            let distanceSymbol = try decode(distance)
            guard distanceSymbol < 30 else { throw corrupt("invalid distance symbol \(distanceSymbol)") }
            let dist = Int(distanceBase[distanceSymbol]) &+ (try bits(Int(distanceExtra[distanceSymbol])))
            guard dist <= outPos else {
                throw corrupt("distance \(dist) reaches before the start of the output")
            }
            guard length <= outCap &- outPos else { throw tooLong }
            let dst = out + outPos
            let src = dst - dist
            if dist >= length {
                dst.update(from: src, count: length)
            } else if dist == 1 {
                dst.update(repeating: src.pointee, count: length)
            } else {
                var k = 0
                while k < length {
                    dst[k] = src[k]
                    k &+= 1
                }
            }
            outPos &+= length
        }
    }
}
