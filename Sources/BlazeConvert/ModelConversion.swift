import BlazeEngine
import Foundation

/// Entry points of the converter used by `blaze-model convert`.
public enum ModelConversion {
    /// Converts one `.tflite` flatbuffer into a validated `Graph`.
    public static func convertTFLite(bytes: [UInt8], modelName: String) throws -> Graph {
        // Converter errors already name the model, the operator index and the op.
        try TFLiteConverter.convert(tfliteBytes: bytes, modelName: modelName)
    }

    /// Converts every `.tflite` entry of a MediaPipe `.task` bundle (a zip) into
    /// `DIR/<entry name without .tflite>.bkm`. All entries are converted before any file is
    /// written, so a failure leaves nothing behind. Returns the written file URLs.
    @discardableResult
    public static func convertTaskBundle(bytes: [UInt8], bundleName: String, outputDirectory: URL) throws -> [URL] {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: bytes) } catch let e as BlazeError { throw e.within(bundleName) }
        var graphs: [(String, Graph)] = []
        for entry in archive.entries where entry.name.lowercased().hasSuffix(".tflite") {
            let data: [UInt8]
            do { data = try archive.extract(entry) } catch let e as BlazeError { throw e.within(bundleName) }
            let stem = String((entry.name as NSString).lastPathComponent.dropLast(".tflite".count))
            graphs.append((stem, try convertTFLite(bytes: data, modelName: "\(bundleName)/\(entry.name)")))
        }
        guard !graphs.isEmpty else {
            throw BlazeError(.invalidInput, "no .tflite entries in the bundle", context: bundleName)
        }
        do {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw BlazeError(.io, "cannot create \(outputDirectory.path): \(error.localizedDescription)")
        }
        var written: [URL] = []
        do {
            for (stem, graph) in graphs {
                let url = outputDirectory.appendingPathComponent(stem + ".bkm")
                try ModelFileWriter.write(graph, to: url)
                written.append(url)
            }
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        return written
    }
}
