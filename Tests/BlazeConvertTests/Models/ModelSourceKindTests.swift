import BlazeConvert
import BlazeTestSupport
import Foundation
import Testing

/// `ModelConversion.sourceKind`: `blaze-model convert` tells a `.tflite` model from a `.task`
/// bundle by its bytes (a piped file has no extension), and by the name only when the bytes are
/// neither's.
@Suite("Model source kind")
struct ModelSourceKindTests {
    @Test func contentDecidesWhateverTheName() throws {
        let tflite = [UInt8](try Data(contentsOf: RepoPaths.modelSources.appendingPathComponent("face_detection_short_range.tflite")))
        var zip = StoredZipBuilder()
        zip.entries = [.init(name: "m.tflite", data: tflite)]
        let bundle = zip.bytes()
        let emptyZip = StoredZipBuilder().bytes()
        for name in ["63", "model.tflite", "model.task", "model.bin"] {
            #expect(ModelConversion.sourceKind(bytes: tflite, fileName: name) == .tflite, "\(name)")
            #expect(ModelConversion.sourceKind(bytes: bundle, fileName: name) == .taskBundle, "\(name)")
            #expect(ModelConversion.sourceKind(bytes: emptyZip, fileName: name) == .taskBundle, "\(name)")
        }
        #expect(ModelConversion.contentKind(tflite) == .tflite)
        #expect(ModelConversion.contentKind(bundle) == .taskBundle)
        // A truncated bundle is still a bundle (the zip reader then says what is missing).
        #expect(ModelConversion.contentKind(Array(bundle.prefix(100))) == .taskBundle)
    }

    /// MediaPipe's face_landmarker.task starts with 2 zero bytes, then its first record: only
    /// its end record tells it is a zip (piped, it was taken for a `.tflite`).
    @Test func bundleWithBytesBeforeItsFirstRecord() throws {
        let task = [UInt8](try Data(contentsOf: RepoPaths.modelSources.appendingPathComponent("face_landmarker.task")))
        #expect(task.prefix(4) == [0, 0, 0x50, 0x4b])
        for name in ["63", "face_landmarker.task", "model.tflite"] {
            #expect(ModelConversion.sourceKind(bytes: task, fileName: name) == .taskBundle, "\(name)")
        }
        #expect(ModelConversion.contentKind(task) == .taskBundle)
    }

    @Test func unknownBytesGoByTheName() {
        for bytes: [UInt8] in [[], Array("PK".utf8), Array("not a model at all".utf8), Array("PK\u{1}\u{2}xxxxxx".utf8)] {
            #expect(ModelConversion.sourceKind(bytes: bytes, fileName: "x.task") == .taskBundle, "\(bytes)")
            #expect(ModelConversion.sourceKind(bytes: bytes, fileName: "x.TASK") == .taskBundle, "\(bytes)")
            #expect(ModelConversion.sourceKind(bytes: bytes, fileName: "x.tflite") == .tflite, "\(bytes)")
            #expect(ModelConversion.sourceKind(bytes: bytes, fileName: "63") == .tflite, "\(bytes)")
            #expect(ModelConversion.contentKind(bytes) == nil, "\(bytes)")
        }
        #expect(ModelConversion.contentKind(Array("BLAZEKIT".utf8)) == nil)
    }
}
