import BlazeTestSupport
import Foundation
import Testing

@testable import BlazeEngine

/// The `.bkm` reader against files assembled by hand from the documented layout (independently of
/// BlazeConvert's writer): decoding, the header checks and their messages, the mmap path.
@Suite("Model file reader")
struct ModelFileReaderTests {
    /// A PRELU model: x [1,2,2,1], fp16 alpha [1] = 0.5, y = prelu(x, alpha).
    struct Tiny {
        var magic = Array("BLAZEKIT".utf8)
        var version: UInt32 = 1
        var metadata: [(String, String)] = [("a", "1"), ("b", "2")]
        var tensorCount: UInt32 = 3
        var blobOffset: UInt64 = 0

        var graphSection: [UInt8] {
            var w = LittleEndianWriter()
            w.u32(1)  // constants
            w.u8(1); w.u8(1); w.u32(1); w.u64(blobOffset)  // fp16, shape [1]
            w.u32(tensorCount)
            for (name, constant) in [("x", UInt32.max), ("alpha", 0), ("y", UInt32.max)] {
                try! w.string(name, "name")
                if constant == 0 { w.u8(1); w.u32(1) } else { w.u8(4); for d: UInt32 in [1, 2, 2, 1] { w.u32(d) } }
                w.u32(constant)
            }
            w.u32(1)  // ops
            w.u8(7); w.u32(0)  // PRELU, no parameters
            w.u32(2); w.u32(0); w.u32(1)
            w.u32(1); w.u32(2)
            w.u32(1); w.u32(0)  // graph inputs
            w.u32(1); w.u32(2)  // graph outputs
            w.u32(UInt32(metadata.count))
            for (k, v) in metadata { try! w.string(k, "key"); try! w.string(v, "value") }
            return w.bytes
        }

        var bytes: [UInt8] {
            let section = graphSection
            let weightsOffset = (64 + section.count + 63) / 64 * 64
            let weightsSize = Int(blobOffset) + 2
            var w = LittleEndianWriter()
            w.append(magic); w.u32(version); w.u32(64)
            w.u64(UInt64(weightsOffset + weightsSize))
            w.u64(64); w.u64(UInt64(section.count))
            w.u64(UInt64(weightsOffset)); w.u64(UInt64(weightsSize)); w.u64(0)
            w.append(section)
            w.padZeros(toMultipleOf: 64)
            w.append([UInt8](repeating: 0, count: Int(blobOffset)))
            w.u16(Float16(0.5).bitPattern)
            return w.bytes
        }
    }

    static let expected = Graph(
        tensors: [
            TensorDescriptor(name: "x", shape: [1, 2, 2, 1]), TensorDescriptor(name: "alpha", shape: [1], constant: 0),
            TensorDescriptor(name: "y", shape: [1, 2, 2, 1])
        ],
        constants: [Constant(shape: [1], values: [0.5], storage: .float16)],
        nodes: [Node(op: .prelu, inputs: [0, 1], outputs: [2])], inputs: [0], outputs: [2], metadata: ["a": "1", "b": "2"])

    @Test func decodesHandAssembledFile() throws {
        #expect(try ModelFile.read(bytes: Tiny().bytes) == Self.expected)
    }

    @Test func readsThroughMemoryMap() throws {
        let url = try temporaryFile(Tiny().bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ModelFile.read(contentsOf: url) == Self.expected)
        try ModelFile.withMappedFile(url.path) { raw in
            #expect(Int(bitPattern: raw.baseAddress) % 4096 == 0)
        }
    }

    @Test func fileErrors() throws {
        let empty = try temporaryFile([])
        defer { try? FileManager.default.removeItem(at: empty) }
        expectError(.corruptModel, "file is 0 bytes") { try ModelFile.read(contentsOf: empty) }
        expectError(.corruptModel, empty.path) { try ModelFile.read(contentsOf: empty) }
        expectError(.io, "cannot open") { try ModelFile.read(contentsOf: URL(fileURLWithPath: "/nonexistent/model.bkm")) }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        expectError(.invalidInput, "is a directory, not a .bkm model") { try ModelFile.read(contentsOf: folder) }

        // The path is named once, by the reader, also through `Model` (it used to add the name again).
        var corrupt = Tiny()
        corrupt.version = 2
        let url = try temporaryFile(corrupt.bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        for load in [{ _ = try ModelFile.read(contentsOf: url) }, { _ = try Model(contentsOf: url) }] {
            let error = #expect(throws: BlazeError.self) { try load() }
            #expect(error?.context == url.path, "\(String(describing: error))")
            #expect(error?.description.components(separatedBy: url.lastPathComponent).count == 2, "\(String(describing: error))")
        }
    }

    @Test func readsFromAFIFO() throws {
        // `blaze-model inspect <(…)`: a FIFO cannot be mapped, so it is read into memory.
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let fifo = scratch.path("model.bkm")
        #expect(makeFIFO(at: fifo, feeding: Data(Tiny().bytes)))
        #expect(try ModelFile.read(contentsOf: URL(fileURLWithPath: fifo)) == Self.expected)
    }

    @Test func badMagicAndVersion() {
        var t = Tiny()
        t.magic = Array("TFL3\0\0\0\0".utf8)
        expectCorrupt(t.bytes, "not a .bkm model: file starts with \"TFL3....\", expected \"BLAZEKIT\"")
        t = Tiny(); t.version = 2
        expectCorrupt(t.bytes, "unsupported .bkm format version 2; this reader supports version 1")
        expectCorrupt(Array("BLAZE".utf8), "file is 5 bytes, too short")
        expectCorrupt(Array(Tiny().bytes.prefix(10)), "format version at byte 8 needs 4 bytes, only 2 left")
        expectCorrupt(Array(Tiny().bytes.prefix(40)), "truncated header: file is 40 bytes")
    }

    @Test func lyingHeaderFields() {
        let good = Tiny().bytes
        func with(_ offset: Int, _ v: UInt64) -> [UInt8] {
            var b = good
            withUnsafeBytes(of: v.littleEndian) { b.replaceSubrange(offset..<(offset + 8), with: $0) }
            return b
        }
        expectCorrupt(Array(good.dropLast()), "header says the file is \(good.count) bytes but it is \(good.count - 1) bytes")
        expectCorrupt(good + [0], "truncated or appended to")
        expectCorrupt(with(16, .max), "header says the file is 18446744073709551615 bytes")
        expectCorrupt(with(24, .max), "graph section offset 18446744073709551615 is past the end")
        expectCorrupt(with(32, UInt64(good.count)), "graph section 64 + \(good.count) bytes runs past the end")
        expectCorrupt(with(32, 1 << 63), "graph section size 9223372036854775808 is past the end")
        expectCorrupt(with(40, 96), "weights section offset 96 is not a multiple of 64 at or after the graph section end")
        expectCorrupt(with(40, 0), "weights section offset 0 is not a multiple")
        expectCorrupt(with(48, .max), "weights section size 18446744073709551615 is past the end")
        expectCorrupt(with(48, 1), "does not end at the end of the")
        expectCorrupt(with(56, 1), "reserved field is 1, expected 0")
        var headerSize = good
        headerSize[12] = 65
        expectCorrupt(headerSize, "header size is 65, expected 64")
    }

    @Test func lyingGraphSection() {
        var t = Tiny()
        t.tensorCount = 60000
        expectCorrupt(t.bytes, "tensor count at byte 82 is 60000, but only")
        t.tensorCount = .max
        expectCorrupt(t.bytes, "tensor count at byte 82 is 4294967295, over the limit 65536")
        t = Tiny(); t.blobOffset = 32
        expectCorrupt(t.bytes, "constant 0 blob offset 32 at byte 74 is not a multiple of 64")
        t = Tiny(); t.metadata = [("b", "1"), ("a", "2")]
        expectCorrupt(t.bytes, "metadata key 'a'")
        t.metadata = [("k", "1"), ("k", "2")]
        expectCorrupt(t.bytes, "is not after the previous key")
        t.metadata = [("e\u{301}", "1"), ("\u{E9}", "2")]  // distinct bytes, equal Swift strings
        expectCorrupt(t.bytes, "repeats an earlier key")
        var badUTF8 = Tiny().bytes
        let x = badUTF8.firstIndex(of: UInt8(ascii: "x"))!
        badUTF8[x] = 0xFF
        expectCorrupt(badUTF8, "tensor 0 name at byte \(x) is not valid UTF-8")
    }

    // MARK: helpers

    func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("bkm-test-\(UUID().uuidString).bkm")
        try Data(bytes).write(to: url)
        return url
    }

    func expectCorrupt(_ bytes: [UInt8], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectError(.corruptModel, fragment, sourceLocation: sourceLocation) { try ModelFile.read(bytes: bytes) }
    }

    func expectError(
        _ kind: BlazeError.Kind, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Graph
    ) {
        do {
            _ = try body()
            Issue.record("expected \(kind) error containing '\(fragment)'", sourceLocation: sourceLocation)
        } catch let e as BlazeError {
            #expect(e.kind == kind, "\(e)", sourceLocation: sourceLocation)
            #expect(e.description.contains(fragment), "\(e)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
        }
    }
}
