import Foundation
import Testing
@testable import BlazeConvert
@testable import BlazeEngine

/// `.bkm` writer: exact round trips, deterministic bytes, 64-byte aligned zero-padded weights,
/// exact fp16, atomic file replacement.
@Suite("Model file writer")
struct ModelFileWriterTests {
    @Test func everyOpRoundTrips() throws {
        let graph = try BKMTestGraphs.everyOp()
        try graph.validate()
        let cases = Set(graph.nodes.map(\.op.opcode))
        #expect(cases == Set(0...15), "the test graph must use every Op case")
        #expect(Set(graph.constants.map(\.storage)) == [.float32, .float16])
        let bytes = try ModelFileWriter.encode(graph)
        let decoded = try ModelFile.read(bytes: bytes)
        #expect(decoded == graph)
        // Bit-exact values, not just `==` (which equates 0 and -0).
        for (a, b) in zip(decoded.constants, graph.constants) {
            #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern))
        }
        #expect(try ModelFileWriter.encode(decoded) == bytes)
    }

    @Test func smallNetRoundTripsThroughAFile() throws {
        let graph = try BKMTestGraphs.smallNet()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("small.bkm")
        try ModelFileWriter.write(graph, to: url)
        #expect(try ModelFile.read(contentsOf: url) == graph)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["small.bkm"])
        let size = try ModelFileWriter.encode(graph).count
        #expect(size > 16_000 && size < 24_000, "about 20 KB: \(size)")
    }

    @Test func weightsAreAlignedAndPaddingIsZero() throws {
        let graph = try BKMTestGraphs.everyOp()
        let bytes = try ModelFileWriter.encode(graph)
        let graphSize = Int(u64(bytes, at: 32)), weightsOffset = Int(u64(bytes, at: 40))
        #expect(weightsOffset % 64 == 0)
        #expect(bytes[(64 + graphSize)..<weightsOffset].allSatisfy { $0 == 0 })
        let layout = try ModelFileWriter.WeightsLayout(graph.constants)
        var end = weightsOffset
        for (i, c) in graph.constants.enumerated() {
            let start = weightsOffset + layout.offsets[i]
            #expect(start % 64 == 0)
            #expect(bytes[end..<start].allSatisfy { $0 == 0 }, "padding before constant \(i)")
            let width = c.storage == .float16 ? 2 : 4
            for (j, v) in c.values.enumerated() {
                let at = start + j * width
                let stored =
                    width == 4
                    ? Float(bitPattern: UInt32(u64(bytes, at: at, width: 4)))
                    : Float(Float16(bitPattern: UInt16(u64(bytes, at: at, width: 2))))
                #expect(stored.bitPattern == v.bitPattern)
            }
            end = start + c.values.count * width
        }
        #expect(end == bytes.count)
        // In a memory map the blobs are 64-byte aligned in memory as well.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("m.bkm")
        try ModelFileWriter.write(graph, to: url)
        try ModelFile.withMappedFile(url.path) { raw in
            for offset in layout.offsets {
                #expect(Int(bitPattern: raw.baseAddress! + weightsOffset + offset) % 64 == 0)
            }
        }
    }

    @Test func bytesAreDeterministic() throws {
        var a = try BKMTestGraphs.everyOp()
        var b = a
        a.metadata = [:]; b.metadata = [:]
        let keys = (0..<50).map { "key \($0)" }
        for k in keys { a.metadata[k] = "v\(k)" }
        for k in keys.reversed() { b.metadata[k] = "v\(k)" }
        #expect(try ModelFileWriter.encode(a) == ModelFileWriter.encode(b))
        // Across processes: a fixed digest (Dictionary order changes per process, the bytes must not).
        // The digest is our own earlier output: a change detector, not evidence the bytes are right
        // (ModelFileReaderTests reads files assembled by hand from the documented layout for that).
        let bytes = try ModelFileWriter.encode(try BKMTestGraphs.everyOp())
        #expect(bytes.count == Self.everyOpFileSize)
        #expect(fnv1a(bytes) == Self.everyOpDigest, "update the golden only after an intended format change")
    }
    static let everyOpFileSize = 3796
    static let everyOpDigest: UInt64 = 679_948_907_596_445_715

    @Test func fp16ValuesMustBeExact() throws {
        let specials: [Float] = [
            0, -0.0, 1, -2, 65504, -65504, .infinity, -.infinity, Float(Float16.leastNonzeroMagnitude),
            Float(Float16.leastNormalMagnitude), Float(Float16(0.1)), Float(Float16(-3.14159))
        ]
        var graph = Graph(
            tensors: [
                TensorDescriptor(name: "x", shape: [1, 12]),
                TensorDescriptor(name: "c", shape: [12], constant: 0),
                TensorDescriptor(name: "y", shape: [1, 12])
            ],
            constants: [Constant(shape: [12], values: specials, storage: .float16)],
            nodes: [Node(op: .binary(BinaryParams(.mul)), inputs: [0, 1], outputs: [2])], inputs: [0], outputs: [2])
        let decoded = try ModelFile.read(bytes: try ModelFileWriter.encode(graph))
        #expect(decoded.constants[0].values.map(\.bitPattern) == specials.map(\.bitPattern))
        graph.constants[0].values[3] = 0.1
        expectInvalid("constant 0 value 3 = 0.1 is marked fp16 but is not exactly representable") { try ModelFileWriter.encode(graph) }
        graph.constants[0].values[3] = 70000
        expectInvalid("not exactly representable in fp16") { try ModelFileWriter.encode(graph) }
        graph.constants[0].storage = .float32
        #expect(try ModelFile.read(bytes: ModelFileWriter.encode(graph)) == graph)
    }

    @Test func refusesGraphsTheFormatCannotHold() throws {
        var g = try BKMTestGraphs.smallNet()
        g.nodes[0].inputs[0] = 10_000
        expectInvalid("cannot write an invalid graph") { try ModelFileWriter.encode(g) }
        g = try BKMTestGraphs.smallNet()
        g.constants.append(Constant(shape: [3], values: [1, 2]))
        expectInvalid("constant \(g.constants.count - 1) has 2 values for shape [3]") { try ModelFileWriter.encode(g) }
        g = try BKMTestGraphs.smallNet()
        g.metadata["huge"] = String(repeating: "x", count: (1 << 20) + 1)
        expectInvalid("over the limit 1048576") { try ModelFileWriter.encode(g) }
    }

    @Test func failedWriteLeavesExistingFileAlone() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("model.bkm")
        let good = try BKMTestGraphs.smallNet()
        try ModelFileWriter.write(good, to: url)
        let before = try Data(contentsOf: url)
        var bad = good
        bad.constants[0].storage = .float16  // random fp32 values are not representable
        #expect(throws: BlazeError.self) { try ModelFileWriter.write(bad, to: url) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["model.bkm"])
        // Replacing works and leaves no temporary file behind.
        try ModelFileWriter.write(try BKMTestGraphs.everyOp(), to: url)
        #expect(try ModelFile.read(contentsOf: url) == BKMTestGraphs.everyOp())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["model.bkm"])
        // A missing folder is an I/O error.
        do {
            try ModelFileWriter.write(good, to: folder.appendingPathComponent("missing/model.bkm"))
            Issue.record("wrote into a missing folder")
        } catch let e as BlazeError {
            #expect(e.kind == .io)
        }
    }

    // MARK: helpers

    func u64(_ bytes: [UInt8], at offset: Int, width: Int = 8) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    func temporaryFolder() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("bkm-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func expectInvalid(_ fragment: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> [UInt8]) {
        do {
            _ = try body()
            Issue.record("expected an error containing '\(fragment)'", sourceLocation: sourceLocation)
        } catch let e as BlazeError {
            #expect(e.kind == .invalidInput, "\(e)", sourceLocation: sourceLocation)
            #expect(e.description.contains(fragment), "\(e)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
        }
    }
}
