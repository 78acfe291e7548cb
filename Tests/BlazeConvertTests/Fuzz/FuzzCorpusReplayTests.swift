import BlazeConvert
import BlazeEngine
import BlazeTestSupport
import Testing

/// The zip and TFLite fuzz corpora through the same calls as their harnesses (Fuzz/Sources).
@Suite("Fuzz corpora: zip and TFLite")
struct ConvertFuzzCorpusReplayTests {
    @Test func zipCorpus() throws {
        try FuzzCorpus.replay("fuzz-zip") { bytes in
            let archive = try ZipArchive(bytes: bytes)
            for entry in archive.entries.prefix(64) where entry.uncompressedSize <= 1 << 24 {
                let data = try archive.extract(entry)
                #expect(data.count == Int(entry.uncompressedSize), "\(entry.name): \(data.count) bytes extracted")
            }
        }
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
