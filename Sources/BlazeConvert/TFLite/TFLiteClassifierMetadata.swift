import BlazeEngine

/// What MediaPipe's classifier postprocessing reads from a `.tflite`'s TFLite Support metadata
/// (the `TFLITE_METADATA` buffer, a `ModelMetadata` flatbuffer, and the zip of associated files
/// appended to the model): per output tensor, the labels file (`TENSOR_AXIS_LABELS`) and the
/// `ScoreThresholdingOptions` global threshold. Stored in the graph's metadata as
/// `output.<i>.labels` (one label per line) and `output.<i>.score_threshold`.
enum TFLiteClassifierMetadata {
    // Field ids of the metadata schema (tensorflow/lite/experimental/support/metadata/metadata_schema.fbs).
    enum Field {
        enum ModelMetadata { static let subgraphMetadata = 3 }
        enum SubGraphMetadata { static let outputTensorMetadata = 3 }
        enum TensorMetadata { static let name = 0, processUnits = 4, associatedFiles = 6 }
        enum AssociatedFile { static let name = 0, type = 2 }
        enum ProcessUnit { static let optionsType = 0 }
        enum ScoreThresholdingOptions { static let globalScoreThreshold = 0 }
    }
    static let tensorAxisLabels: UInt8 = 2
    static let scoreThresholdingOptions: UInt8 = 3
    /// Most labels read from one file (a classifier head has tens).
    static let maximumLabels = 65536

    /// The graph metadata entries of `model`'s classifier outputs; empty when it has no metadata.
    static func entries(_ model: TFLiteModel, tfliteBytes: [UInt8]) throws -> [String: String] {
        guard let entry = model.metadata.first(where: { $0.name == "TFLITE_METADATA" }) else { return [:] }
        let buffer = FlatBuffer(Array(model.bufferBytes(entry.buffer)))
        let root = try buffer.rootTable(fileIdentifier: "M001")
        guard let subgraphs = try root.vector(Field.ModelMetadata.subgraphMetadata, elementSize: 4), subgraphs.count > 0,
            let outputs = try subgraphs.table(at: 0).vector(Field.SubGraphMetadata.outputTensorMetadata, elementSize: 4)
        else { return [:] }
        var files: ZipArchive?
        var out: [String: String] = [:]
        for i in 0..<outputs.count {
            let tensor = try outputs.table(at: i)
            if let units = try tensor.vector(Field.TensorMetadata.processUnits, elementSize: 4) {
                for u in 0..<units.count {
                    let (type, options) = try units.table(at: u).union(typeID: Field.ProcessUnit.optionsType)
                    guard type == scoreThresholdingOptions, let options else { continue }
                    let threshold = try options.float32(Field.ScoreThresholdingOptions.globalScoreThreshold, default: 0)
                    guard threshold.isFinite else {
                        throw BlazeError(.corruptModel, "metadata of output \(i): score threshold \(threshold) is not finite")
                    }
                    out["output.\(i).score_threshold"] = "\(threshold)"
                }
            }
            guard let associated = try tensor.vector(Field.TensorMetadata.associatedFiles, elementSize: 4) else { continue }
            for f in 0..<associated.count {
                let file = try associated.table(at: f)
                guard try file.scalar(Field.AssociatedFile.type, default: UInt8(0)) == tensorAxisLabels,
                    let name = try file.string(Field.AssociatedFile.name)
                else { continue }
                if files == nil {
                    do { files = try ZipArchive(bytes: tfliteBytes) } catch let e as BlazeError {
                        throw BlazeError(e.kind, "metadata of output \(i) names labels file '\(name)', but the model carries no readable file archive: \(e.message)")
                    }
                }
                guard let zipEntry = files?.entries.first(where: { $0.name == name }) else {
                    throw BlazeError(.corruptModel, "metadata of output \(i) names labels file '\(name)', which the model's file archive lacks")
                }
                out["output.\(i).labels"] = try labels(files!.extract(zipEntry), file: name).joined(separator: "\n")
                break
            }
        }
        return out
    }

    /// The lines of a labels file (UTF-8, `\n` or `\r\n`, a final newline optional), one label each.
    static func labels(_ bytes: [UInt8], file: String) throws -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BlazeError(.corruptModel, "labels file '\(file)' is not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        if lines.last == "" { lines.removeLast() }
        guard lines.count <= maximumLabels else {
            throw BlazeError(.corruptModel, "labels file '\(file)' has \(lines.count) lines, more than \(maximumLabels)")
        }
        return lines
    }
}
