import BlazeEngine
import BlazeTestSupport
import Foundation
import Testing

/// The smallest bundled model file treated as hostile input: every truncation length, and
/// seeded random byte flips. Each attempt must load a runnable graph or throw `BlazeError`;
/// a trap would kill the test process.
@Suite("Hostile bundled model files")
struct HostileBundledModelTests {
    static let smallest = RepoPaths.bundledModels.appendingPathComponent("face_detection_short_range.bkm")

    @Test func everyTruncationThrows() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.smallest))
        var thrown = 0
        for length in 0..<bytes.count {
            do {
                _ = try bytes.withUnsafeBytes { try ModelFile.read(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
                Issue.record("truncation to \(length) bytes loaded")
            } catch is BlazeError {
                thrown += 1
            }
        }
        #expect(thrown == bytes.count)
    }

    @Test func randomByteFlipsLoadOrThrow() throws {
        let original = [UInt8](try Data(contentsOf: Self.smallest))
        var rng = SeededRandom(seed: 0xB1A2E)
        var loaded = 0, thrown = 0
        for trial in 0..<3000 {
            var bytes = original
            // Half the trials aim at the header and graph section, where structure lives.
            let structureEnd = min(bytes.count, 64 + 40_000)
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                let limit = trial % 2 == 0 ? structureEnd : bytes.count
                bytes[Int(rng.next() % UInt64(limit))] = UInt8(truncatingIfNeeded: rng.next())
            }
            do {
                let graph = try ModelFile.read(bytes: bytes)
                try graph.validate()
                _ = try Model(graph: graph)
                loaded += 1
            } catch is BlazeError {
                thrown += 1
            }
        }
        #expect(loaded + thrown == 3000)
        #expect(thrown > 0)
    }
}
