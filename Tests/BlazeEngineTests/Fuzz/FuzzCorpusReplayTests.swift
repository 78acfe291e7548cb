import BlazeEngine
import BlazeTestSupport
import Testing

/// The .bkm and .npy fuzz corpora through the same calls as their harnesses (Fuzz/Sources).
@Suite("Fuzz corpora: bkm and npy")
struct EngineFuzzCorpusReplayTests {
    @Test func bkmCorpus() throws {
        try FuzzCorpus.replay("fuzz-bkm") { bytes in
            let graph = try ModelFile.read(bytes: bytes)
            _ = try Model(graph: graph)
        }
    }

    @Test func npyCorpus() throws {
        try FuzzCorpus.replay("fuzz-npy") { bytes in
            let array = try NPYArray(bytes: bytes)
            #expect(array.values.count == array.shape.reduce(1, *))
            // What the reader accepts, the writer writes back to an equal array.
            let again = try NPYArray(bytes: array.encoded())
            #expect(again.shape == array.shape && again.values.elementsEqual(array.values) { $0 == $1 || ($0.isNaN && $1.isNaN) })
        }
    }
}
