import BlazeConvert
import BlazeEngine
import BlazeTestSupport
import Testing

/// The zip and TFLite fuzz corpora through the same calls as their harnesses (Fuzz/Sources).
@Suite("Fuzz corpora: zip and TFLite")
struct ConvertFuzzCorpusReplayTests {
    @Test func zipCorpus() throws {
        // As the harness: every entry, and the entries of a `.task` inside the bundle.
        func walk(_ bytes: [UInt8], depth: Int) throws {
            let archive = try ZipArchive(bytes: bytes)
            for entry in archive.entries.prefix(64) where entry.uncompressedSize <= 1 << 24 {
                let data = try archive.extract(entry)
                #expect(data.count == Int(entry.uncompressedSize), "\(entry.name): \(data.count) bytes extracted")
                if depth == 0 && entry.name.lowercased().hasSuffix(".task") { try walk(data, depth: 1) }
            }
        }
        try FuzzCorpus.replay("fuzz-zip") { try walk($0, depth: 0) }
    }

    @Test func tfliteCorpus() throws {
        try FuzzCorpus.replay("fuzz-tflite") { bytes in
            let graph = try ModelConversion.convertTFLite(bytes: bytes, modelName: "fuzz.tflite")
            // What the converter accepts must round-trip through our own file format.
            let encoded = try ModelFileWriter.encode(graph)
            #expect(try ModelFile.read(bytes: encoded).nodes.count == graph.nodes.count)
        }
    }
}
