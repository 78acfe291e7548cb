import BlazeTestSupport
@testable import BlazeConvert
import BlazeEngine
import Testing

/// Raw deflate through zlib on hand-written streams: each rule of the format, and garbage. The
/// expected reasons are zlib's own messages (zlib 1.2.13, `inflate.c`) or, for sizes and
/// truncation, the wrapper's.
@Suite("Zip inflater")
struct ZipInflaterTests {
    static func inflate(_ stream: [UInt8], _ expectedSize: Int) throws -> [UInt8] {
        try stream.withUnsafeBufferPointer { try Inflater.inflate($0, expectedSize: expectedSize) }
    }

    static func expectCorrupt(
        _ stream: [UInt8], _ expectedSize: Int, _ words: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = zipError({ _ = try inflate(stream, expectedSize) }, sourceLocation: sourceLocation) else { return }
        #expect(error.kind == .corruptModel, "\(error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "'\(word)' not in: \(error.message)", sourceLocation: sourceLocation)
        }
    }

    /// A fixed-Huffman final block with the given symbols; `(length, distance)` pairs use
    /// length codes 257…264 (3…10) and distance codes 0…3 (1…4), no extra bits.
    static func fixedBlock(_ literals: [Int], then matches: [(length: Int, distance: Int)] = [], final: Bool = true) -> DeflateBitWriter {
        var w = DeflateBitWriter()
        w.bits(final ? 1 : 0, 1)
        w.bits(1, 2)
        for l in literals { w.fixedLiteral(l) }
        for m in matches {
            w.fixedLiteral(257 + m.length - 3)
            w.fixedDistance(m.distance - 1)
        }
        w.fixedLiteral(256)
        return w
    }

    @Test("stored blocks: empty, with data, and a bad length complement")
    func storedBlocks() throws {
        #expect(try Self.inflate([0x01, 0x00, 0x00, 0xFF, 0xFF], 0) == [])
        #expect(try Self.inflate([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63], 3) == Array("abc".utf8))
        Self.expectCorrupt([0x01, 0x03, 0x00, 0xFC, 0xFE, 0x61, 0x62, 0x63], 3, "invalid stored block lengths")
        Self.expectCorrupt([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62], 3, "truncated")
        Self.expectCorrupt([0x01, 0x03, 0x00], 3, "truncated")
        Self.expectCorrupt([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63], 2, "more than the declared 2")
    }

    @Test("fixed Huffman: literals, overlapping matches, matches reaching into an earlier block")
    func fixedBlocks() throws {
        let abc = Self.fixedBlock([0x61, 0x62, 0x63, 200, 0, 255])
        #expect(try Self.inflate(abc.bytes, 6) == [0x61, 0x62, 0x63, 200, 0, 255])
        // "a" + (10, 1) → 11 × "a": an overlapping copy.
        let run = Self.fixedBlock([0x61], then: [(10, 1)])
        #expect(try Self.inflate(run.bytes, 11) == [UInt8](repeating: 0x61, count: 11))
        // "xy" + (7, 2) → "xyxyxyxyx".
        let pair = Self.fixedBlock([0x78, 0x79], then: [(7, 2)])
        #expect(try Self.inflate(pair.bytes, 9) == Array("xyxyxyxyx".utf8))
        // A stored non-final block "abcd", then a fixed block copying it (distance 4).
        var w = DeflateBitWriter()
        w.bits(0, 1)
        w.bits(0, 2)
        w.bytes += [0x04, 0x00, 0xFB, 0xFF] + Array("abcd".utf8)
        w.bitCount = w.bytes.count * 8
        w.bits(1, 1)
        w.bits(1, 2)
        w.fixedLiteral(257 + 1)  // length 4
        w.fixedDistance(3)  // distance 4
        w.fixedLiteral(256)
        #expect(try Self.inflate(w.bytes, 8) == Array("abcdabcd".utf8))
    }

    @Test("distances before the start of the output")
    func distanceTooFar() {
        Self.expectCorrupt(Self.fixedBlock([], then: [(3, 1)]).bytes, 3, "invalid distance too far back")
        Self.expectCorrupt(Self.fixedBlock([0x61, 0x62], then: [(3, 3)]).bytes, 5, "invalid distance too far back")
    }

    @Test("invalid symbols and block type")
    func invalidSymbols() {
        Self.expectCorrupt([0x07], 0, "invalid block type")
        var length286 = DeflateBitWriter()
        length286.bits(1, 1)
        length286.bits(1, 2)
        length286.fixedLiteral(0x61)
        length286.fixedLiteral(286)
        length286.bits(0, 16)
        Self.expectCorrupt(length286.bytes, 4, "invalid literal/length code")
        var distance30 = DeflateBitWriter()
        distance30.bits(1, 1)
        distance30.bits(1, 2)
        distance30.fixedLiteral(0x61)
        distance30.fixedLiteral(257)
        distance30.fixedDistance(30)
        distance30.bits(0, 16)
        Self.expectCorrupt(distance30.bytes, 4, "invalid distance code")
    }

    @Test("output longer or shorter than declared")
    func declaredSize() {
        let stream = Self.fixedBlock([0x61], then: [(10, 1)]).bytes
        Self.expectCorrupt(stream, 10, "more than the declared 10 bytes")
        Self.expectCorrupt(stream, 12, "ends after 11 bytes")
        Self.expectCorrupt(stream, 0, "more than the declared 0 bytes")
        let nonFinal = Self.fixedBlock([0x61], final: false).bytes
        Self.expectCorrupt(nonFinal, 1, "truncated")
    }

    /// Dynamic block header: HLIT, HDIST, HCLEN and the code-length code's lengths (in the
    /// order of RFC 1951 §3.2.7).
    static func dynamicHeader(literals: Int, distances: Int, codeLengthLengths: [Int]) -> DeflateBitWriter {
        var w = DeflateBitWriter()
        w.bits(1, 1)
        w.bits(2, 2)
        w.bits(literals - 257, 5)
        w.bits(distances - 1, 5)
        w.bits(codeLengthLengths.count - 4, 4)
        for l in codeLengthLengths { w.bits(l, 3) }
        return w
    }

    @Test("dynamic block headers: over-subscribed, incomplete, bad repeats, no end-of-block")
    func dynamicHeaders() throws {
        // 19 code-length codes of length 1: over-subscribed.
        var over = Self.dynamicHeader(literals: 257, distances: 1, codeLengthLengths: [Int](repeating: 1, count: 19))
        over.bits(0, 32)
        Self.expectCorrupt(over.bytes, 1, "invalid code lengths set")
        // A single code-length code of length 1: incomplete (not allowed for this code).
        var incomplete = Self.dynamicHeader(literals: 257, distances: 1, codeLengthLengths: [0, 0, 0, 1])
        incomplete.bits(0, 32)
        Self.expectCorrupt(incomplete.bytes, 1, "invalid code lengths set")
        // Code-length code: symbols 16, 17, 18 and 1 with 2 bits each (order 16 17 18 0 8 7 9 6
        // 10 5 11 4 12 3 13 2 14 1). Canonical codes: 1→00, 16→01, 17→10, 18→11.
        let lengths2 = [2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
        var repeatFirst = Self.dynamicHeader(literals: 257, distances: 1, codeLengthLengths: lengths2)
        repeatFirst.code(0b01, 2)  // 16 with no previous length
        repeatFirst.bits(0, 2 + 32)
        Self.expectCorrupt(repeatFirst.bytes, 1, "invalid bit length repeat")
        var overrun = Self.dynamicHeader(literals: 257, distances: 1, codeLengthLengths: lengths2)
        for _ in 0..<3 {
            overrun.code(0b11, 2)  // 18: 11 + 127 zeros
            overrun.bits(127, 7)
        }
        overrun.bits(0, 32)
        Self.expectCorrupt(overrun.bytes, 1, "invalid bit length repeat")
        // 258 lengths all zero except symbol 0 → no end-of-block code.
        var noEnd = Self.dynamicHeader(literals: 257, distances: 1, codeLengthLengths: lengths2)
        noEnd.code(0b00, 2)  // length 1 for literal 0
        noEnd.code(0b11, 2)
        noEnd.bits(138 - 11, 7)
        noEnd.code(0b11, 2)
        noEnd.bits(119 - 11, 7)  // 1 + 138 + 119 = 258
        noEnd.bits(0, 32)
        Self.expectCorrupt(noEnd.bytes, 1, "missing end-of-block")
    }

    /// A dynamic block: literal/length code {0x41: `a`, 256: `eob`, 257: `len3`} bits,
    /// one distance code (symbol 0, distance 1) of length 1, then `body`.
    /// Code-length code: symbols 1, 2, 17, 18 with 2 bits each → 1:00 2:01 17:10 18:11.
    static func dynamicBlock(a: Int, eob: Int, len3: Int, body: (inout DeflateBitWriter) -> Void) -> [UInt8] {
        let codeLengthLengths = [0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2]
        var w = dynamicHeader(literals: 258, distances: 1, codeLengthLengths: codeLengthLengths)
        func length(_ l: Int) { w.code(l == 1 ? 0b00 : 0b01, 2) }
        w.code(0b11, 2); w.bits(65 - 11, 7)  // symbols 0…0x40: 0
        length(a)  // 0x41
        w.code(0b11, 2); w.bits(138 - 11, 7)  // 0x42…0xCB: 0
        w.code(0b11, 2); w.bits(52 - 11, 7)  // 0xCC…0xFF: 0
        length(eob)  // 256
        length(len3)  // 257
        length(1)  // distance symbol 0
        body(&w)
        w.bits(0, 32)
        return w.bytes
    }

    @Test("a hand-written dynamic block; incomplete and over-subscribed literal codes")
    func dynamicBlocks() throws {
        // Codes: 0x41 → 0, 256 → 10, 257 → 11 (read MSB first); distance 0 → 0.
        let good = Self.dynamicBlock(a: 1, eob: 2, len3: 2) { w in
            w.code(0b0, 1)  // 'A'
            w.code(0b11, 2)  // length 3
            w.code(0b0, 1)  // distance 1
            w.code(0b10, 2)  // end of block
        }
        #expect(try Self.inflate(good, 4) == Array("AAAA".utf8))
        Self.expectCorrupt(Self.dynamicBlock(a: 2, eob: 2, len3: 2) { _ in }, 4, "invalid literal/lengths set")
        Self.expectCorrupt(Self.dynamicBlock(a: 1, eob: 1, len3: 2) { _ in }, 4, "invalid literal/lengths set")
    }

    @Test("garbage streams never trap: they throw or produce exactly the declared size")
    func garbage() {
        var rng = SeededRandom(seed: 42)
        var produced = 0
        for trial in 0..<20_000 {
            var stream = (0..<Int.random(in: 1...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if trial % 3 == 0 { stream[0] = stream[0] & ~6 | 4 }  // dynamic block header
            if trial % 3 == 1 { stream[0] = stream[0] & ~6 | 2 }  // fixed block
            let size = Int.random(in: 0...2000, using: &rng)
            do {
                let out = try Self.inflate(stream, size)
                #expect(out.count == size)
                produced += 1
            } catch let error as BlazeError {
                #expect(error.kind == .corruptModel)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        _ = produced
    }

    @Test("empty input and sizes outside the cap")
    func limits() {
        Self.expectCorrupt([], 0, "empty")
        let error = zipError { _ = try Self.inflate([0x01, 0x00, 0x00, 0xFF, 0xFF], ZipArchive.maximumEntrySize + 1) }
        #expect(error?.kind == .unsupported)
    }
}
