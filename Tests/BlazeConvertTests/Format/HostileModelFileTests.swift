import BlazeTestSupport
import Testing
@testable import BlazeConvert
@testable import BlazeEngine

/// Damaged and lying `.bkm` files: every one either loads a graph that validates or throws a
/// `BlazeError(.corruptModel)`; none traps (a trap would kill the test process).
@Suite("Hostile model files")
struct HostileModelFileTests {
    static let smallNetBytes: [UInt8] = {
        do { return try ModelFileWriter.encode(try BKMTestGraphs.smallNet()) } catch { fatalError("\(error)") }
    }()

    /// Outcome of reading `bytes`: nil if it loaded (and validated), the error otherwise.
    func load(_ bytes: [UInt8]) -> BlazeError? {
        do {
            let g = try ModelFile.read(bytes: bytes)
            try g.validate()
            return nil
        } catch let e as BlazeError {
            return e
        } catch {
            Issue.record("untyped error \(error)")
            return nil
        }
    }

    @Test func everyTruncationThrows() {
        let bytes = Self.smallNetBytes
        for n in 0..<bytes.count {
            let e = load(Array(bytes.prefix(n)))
            #expect(e?.kind == .corruptModel, "length \(n)")
        }
    }

    /// Truncations with the header patched to agree, so the section and blob checks are reached.
    @Test func everyShortenedSectionThrows() {
        let bytes = Self.smallNetBytes
        let graphSize = Int(field(bytes, 32)), weightsOffset = Int(field(bytes, 40))
        for size in 0..<graphSize {
            let e = load(patched(bytes, 32, UInt64(size)))
            #expect(e?.kind == .corruptModel, "graph section size \(size)")
        }
        for n in weightsOffset..<bytes.count {
            var short = Array(bytes.prefix(n))
            short = patched(short, 16, UInt64(n))
            short = patched(short, 48, UInt64(n - weightsOffset))
            let e = load(short)
            #expect(e?.kind == .corruptModel, "weights section size \(n - weightsOffset)")
            if n == bytes.count - 1 { #expect(e?.description.contains("runs past the") == true, "\(String(describing: e))") }
        }
    }

    /// 5000 seeded trials flipping 1–8 random bytes anywhere, 5000 more inside header and graph section.
    @Test(arguments: [false, true])
    func randomByteFlips(structureOnly: Bool) {
        let bytes = Self.smallNetBytes
        let range = structureOnly ? 0..<(64 + Int(field(bytes, 32))) : 0..<bytes.count
        var rng = SeededRandom(seed: structureOnly ? 0xB1A2E : 0x5EED)
        var loaded = 0, refused = 0
        for trial in 0..<5000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                damaged[Int.random(in: range, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            if let e = load(damaged) {
                #expect(e.kind == .corruptModel, "trial \(trial): \(e)")
                refused += 1
            } else {
                loaded += 1
            }
        }
        #expect(loaded + refused == 5000)
        #expect(refused > (structureOnly ? 2500 : 100), "loaded \(loaded), refused \(refused)")
    }

    @Test func lyingHeader() {
        let bytes = Self.smallNetBytes
        expect(patched(bytes, 16, .max), "header says the file is 18446744073709551615 bytes")
        expect(patched(bytes, 24, UInt64(bytes.count + 1)), "graph section offset \(bytes.count + 1) is past the end")
        expect(patched(bytes, 32, .max - 63), "graph section size 18446744073709551552 is past the end")
        expect(patched(bytes, 32, UInt64(bytes.count - 63)), "runs past the end of the \(bytes.count)-byte file")
        expect(patched(bytes, 40, field(bytes, 40) + 64), "does not end at the end of the \(bytes.count)-byte file")
        expect(patched(bytes, 40, field(bytes, 40) + 1), "is not a multiple of 64")
        expect(patched(bytes, 48, .max), "weights section size 18446744073709551615 is past the end")
    }

    @Test func lyingGraphSection() {
        let bytes = Self.smallNetBytes
        // The first constant record: storage at 68, rank at 69, 4 dims, blob offset at 86.
        expect(patched32(bytes, 64, .max), "constant count at byte 64 is 4294967295, over the limit 65536")
        expect(patched32(bytes, 64, 60_000), "constant count at byte 64 is 60000, but only")
        expect(patched8(bytes, 68, 2), "constant 0 storage at byte 68 has unknown value 2")
        expect(patched8(bytes, 69, 9), "constant 0 rank 9 at byte 69 is over the limit 8")
        expect(patched32(bytes, 70, .max), "constant 0 dim 0 at byte 70 is 4294967295, over the limit 2147483647")
        expect(patched32(bytes, 70, 1 << 30), "constant 0 has too many elements")
        expect(patched(bytes, 86, .max), "constant 0 blob offset 18446744073709551615 at byte 86 is past the")
        expect(patched(bytes, 86, 32), "constant 0 blob offset 32 at byte 86 is not a multiple of 64")
        // Constant 0 moved up by 64 bytes now overlaps constant 1 (record at 94, blob offset at 100).
        expect(patched(bytes, 86, 64), "constant 1 blob offset 1728 at byte 100 overlaps the previous blob, which ends at 1792")
        expect(patched(bytes, 100, 0), "constant 1 blob offset 0 at byte 100 overlaps the previous blob")
    }

    @Test func lyingCountsDeeperIn() throws {
        let graph = try BKMTestGraphs.smallNet()
        // Offset of the tensor count: after the constant records (2 + 4·rank + 8 bytes each).
        let tensorCountAt = 68 + graph.constants.reduce(0) { $0 + 2 + 4 * $1.shape.count + 8 }
        let bytes = Self.smallNetBytes
        #expect(field(bytes, tensorCountAt, width: 4) == UInt64(graph.tensors.count))
        expect(patched32(bytes, tensorCountAt, 1 << 16 + 1), "tensor count at byte \(tensorCountAt) is 65537, over the limit 65536")
        expect(patched32(bytes, tensorCountAt, 1 << 16), "tensor count at byte \(tensorCountAt) is 65536, but only")
        // First tensor: name length, then the name.
        expect(patched32(bytes, tensorCountAt + 4, .max), "length of tensor 0 name at byte \(tensorCountAt + 4) is 4294967295, over the limit")
        expect(patched32(bytes, tensorCountAt + 4, 1 << 20), "is 1048576, but only")
        expect(patched8(bytes, tensorCountAt + 8, 0xC0), "tensor 0 name at byte \(tensorCountAt + 8) is not valid UTF-8")
        let constantIndexAt = tensorCountAt + 8 + 5 + 1 + 16
        #expect(field(bytes, constantIndexAt, width: 4) == UInt64(ModelFile.Layout.noConstant))
        expect(
            patched32(bytes, constantIndexAt, UInt32(graph.constants.count)),
            "tensor 0 'input' constant index \(graph.constants.count) at byte \(constantIndexAt), but there are only \(graph.constants.count) constants")
        expect(patched32(bytes, constantIndexAt, 0), "constant 0 does not match tensor 0 'input'")
    }

    // MARK: helpers

    func expect(_ bytes: [UInt8], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let e = load(bytes) else {
            Issue.record("loaded; expected '\(fragment)'", sourceLocation: sourceLocation)
            return
        }
        #expect(e.kind == .corruptModel, sourceLocation: sourceLocation)
        #expect(e.description.contains(fragment), "\(e)", sourceLocation: sourceLocation)
    }

    func field(_ bytes: [UInt8], _ offset: Int, width: Int = 8) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    func patched(_ bytes: [UInt8], _ offset: Int, _ v: UInt64) -> [UInt8] {
        var b = bytes
        withUnsafeBytes(of: v.littleEndian) { b.replaceSubrange(offset..<(offset + 8), with: $0) }
        return b
    }

    func patched32(_ bytes: [UInt8], _ offset: Int, _ v: UInt32) -> [UInt8] {
        var b = bytes
        withUnsafeBytes(of: v.littleEndian) { b.replaceSubrange(offset..<(offset + 4), with: $0) }
        return b
    }

    func patched8(_ bytes: [UInt8], _ offset: Int, _ v: UInt8) -> [UInt8] {
        var b = bytes
        b[offset] = v
        return b
    }
}
