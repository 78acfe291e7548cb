import BlazeConvert
import BlazeEngine
import Foundation

/// Loads the `.bkm` model of `inspect` and `run`. A `.tflite` model or `.task` bundle given instead
/// fails as a corrupt `.bkm`; the error then says what the file is and to convert it first.
func loadBKM(_ path: String) throws -> Model {
    do {
        return try Model(contentsOf: URL(fileURLWithPath: path))
    } catch let error as BlazeError where error.kind == .corruptModel {
        // Only a regular file can be read a second time (a pipe's bytes are gone).
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
            let bytes = try? FileDescriptorIO.readFile(path: path, kind: "a model file"),
            // A damaged .bkm keeps its own error, whatever its weights hold.
            !bytes.starts(with: ModelFile.Layout.magic), let kind = ModelConversion.contentKind([UInt8](bytes))
        else { throw error }
        let what =
            kind == .tflite
            ? "a TFLite model (convert it: blaze-model convert IN.tflite -o OUT.bkm)"
            : "a .task bundle (convert it: blaze-model convert IN.task --output-dir DIR)"
        throw BlazeError(.invalidInput, "is \(what), not a .bkm model", context: path)
    }
}
