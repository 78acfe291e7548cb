import BlazeEngine
import Foundation

/// Entry points of the converter used by `blaze-model convert`.
public enum ModelConversion {
    /// Converts one `.tflite` flatbuffer into a validated `Graph`.
    public static func convertTFLite(bytes: [UInt8], modelName: String) throws -> Graph {
        // Converter errors already name the model, the operator index and the op.
        try TFLiteConverter.convert(tfliteBytes: bytes, modelName: modelName)
    }

    /// Most bytes the `.tflite` entries of one bundle may inflate to, all entries together.
    public static let maximumBundleInflatedBytes = 1 << 30

    /// Converts every `.tflite` entry of a MediaPipe `.task` bundle (a zip) into
    /// `DIR/<entry name without .tflite>.bkm`.
    ///
    /// - Central-directory entries that point at the same local entry are one entry (converted
    ///   once); the declared inflated sizes of the distinct entries may total at most
    ///   `maximumBundleInflatedBytes`, checked before anything is inflated.
    /// - Two entries whose names end in the same file name (`a/m.tflite`, `b/m.tflite`) are an
    ///   error: they would be written to one file.
    /// - Everything is converted and encoded before any file is written, and the files are written
    ///   as one transaction (`OutputFiles`): on any error every existing file is left as it was.
    ///
    /// Returns the written file URLs.
    @discardableResult
    public static func convertTaskBundle(bytes: [UInt8], bundleName: String, outputDirectory: URL) throws -> [URL] {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: bytes) } catch let e as BlazeError { throw e.within(bundleName) }
        var seenOffsets = Set<Int>()
        var models: [ZipEntry] = []
        for entry in archive.entries where entry.name.lowercased().hasSuffix(".tflite") && !entry.isDirectory {
            if seenOffsets.insert(entry.localHeaderOffset).inserted { models.append(entry) }
        }
        guard !models.isEmpty else {
            throw BlazeError(.invalidInput, "no .tflite entries in the bundle", context: bundleName)
        }
        let declared = models.reduce(0) { $0 + max(0, $1.uncompressedSize) }
        guard declared <= maximumBundleInflatedBytes else {
            throw BlazeError(
                .unsupported, "the \(models.count) .tflite entries declare \(declared) inflated bytes in all, more than the \(maximumBundleInflatedBytes)-byte limit",
                context: bundleName)
        }
        let stems = models.map { String(($0.name as NSString).lastPathComponent.dropLast(".tflite".count)) }
        var firstEntry: [String: String] = [:]
        for (entry, stem) in zip(models, stems) {
            if let other = firstEntry[stem] {
                throw BlazeError(.invalidInput, "entries '\(other)' and '\(entry.name)' would both be written to \(stem).bkm; nothing was written", context: bundleName)
            }
            firstEntry[stem] = entry.name
        }
        // One graph at a time: only its encoded bytes are kept until the files are written.
        var items: [OutputFiles.Item] = []
        for (entry, stem) in zip(models, stems) {
            let data: [UInt8]
            do { data = try archive.extract(entry) } catch let e as BlazeError { throw e.within(bundleName) }
            let graph = try convertTFLite(bytes: data, modelName: "\(bundleName)/\(entry.name)")
            items.append(
                OutputFiles.Item(
                    url: outputDirectory.appendingPathComponent(stem + ".bkm"),
                    bytes: try ModelFileWriter.encode(graph), origin: "entry '\(entry.name)'"))
        }
        do {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw BlazeError(.io, "cannot create \(outputDirectory.path): \(error.localizedDescription)")
        }
        try OutputFiles.write(items)
        return items.map(\.url)
    }
}
