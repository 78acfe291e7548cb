import BlazeEngine
import Foundation

/// Entry points of the converter used by `blaze-model convert`.
public enum ModelConversion {
    /// What a model source file holds.
    public enum SourceKind: Sendable, Equatable {
        /// One `.tflite` flatbuffer: `convertTFLite`.
        case tflite
        /// A MediaPipe `.task` bundle (a zip): `convertTaskBundle`.
        case taskBundle
    }

    /// The kind of `bytes` by content (`contentKind`), since a piped file has no name to go by;
    /// else by the extension of `fileName` (`.task`: a bundle), so that a damaged file gets its
    /// format's error.
    public static func sourceKind(bytes: [UInt8], fileName: String) -> SourceKind {
        contentKind(bytes) ?? ((fileName as NSString).pathExtension.lowercased() == "task" ? .taskBundle : .tflite)
    }

    /// The kind of `bytes` by content alone: the `TFL3` identifier at byte 4, or a zip — its
    /// end record found as the zip reader finds it (MediaPipe's face_landmarker.task has 2 bytes
    /// before its first record), or a first record `PK\3\4` (a truncated zip); nil for neither.
    public static func contentKind(_ bytes: [UInt8]) -> SourceKind? {
        if bytes.count >= 8 && bytes[4..<8].elementsEqual(TFLiteModel.fileIdentifier.utf8) { return .tflite }
        if ZipBytes.u32(bytes, 0) == ZipArchive.localHeaderSignature || (try? ZipArchive.findEndRecord(bytes)) != nil {
            return .taskBundle
        }
        return nil
    }

    /// Converts one `.tflite` flatbuffer into a validated `Graph`.
    public static func convertTFLite(bytes: [UInt8], modelName: String) throws -> Graph {
        // Converter errors already name the model, the operator index and the op.
        try TFLiteConverter.convert(tfliteBytes: bytes, modelName: modelName)
    }

    /// Most bytes the `.tflite` entries of one bundle may inflate to, all entries together.
    public static let maximumBundleInflatedBytes = 1 << 30

    /// Converts every `.tflite` entry of a MediaPipe `.task` bundle (a zip), and of the `.task`
    /// bundles inside it (a gesture bundle nests two), into `DIR/<entry name without .tflite>.bkm`.
    ///
    /// - Central-directory entries that point at the same local entry are one entry (converted
    ///   once); the declared inflated sizes of the distinct entries, inner bundles included, may
    ///   total at most `maximumBundleInflatedBytes`, checked level by level before inflating.
    /// - Two entries whose names end in the same file name (`a/m.tflite`, `b/m.tflite`) are an
    ///   error: they would be written to one file.
    /// - Everything is converted and encoded before any file is written, and the files are written
    ///   as one transaction (`OutputFiles`): on any error every existing file is left as it was.
    ///
    /// Returns the written file URLs.
    @discardableResult
    public static func convertTaskBundle(bytes: [UInt8], bundleName: String, outputDirectory: URL) throws -> [URL] {
        var budget = maximumBundleInflatedBytes
        let models = try tfliteEntries(bytes, path: bundleName, depth: 0, budget: &budget)
        guard !models.isEmpty else {
            throw BlazeError(.invalidInput, "no .tflite entries in the bundle", context: bundleName)
        }
        let stems = models.map { String(($0.entry.name as NSString).lastPathComponent.dropLast(".tflite".count)) }
        var firstEntry: [String: String] = [:]
        for (model, stem) in zip(models, stems) {
            let inside = String(model.path.dropFirst(bundleName.count + 1))  // the path within the bundle
            if let other = firstEntry[stem] {
                throw BlazeError(.invalidInput, "entries '\(other)' and '\(inside)' would both be written to \(stem).bkm; nothing was written", context: bundleName)
            }
            firstEntry[stem] = inside
        }
        // One graph at a time: only its encoded bytes are kept until the files are written.
        var items: [OutputFiles.Item] = []
        for (model, stem) in zip(models, stems) {
            let data: [UInt8]
            do { data = try model.archive.extract(model.entry) } catch let e as BlazeError { throw e.within(bundleName) }
            let graph = try convertTFLite(bytes: data, modelName: model.path)
            items.append(
                OutputFiles.Item(
                    url: outputDirectory.appendingPathComponent(stem + ".bkm"),
                    bytes: try ModelFileWriter.encode(graph), origin: "entry '\(model.path.dropFirst(bundleName.count + 1))'"))
        }
        do {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw BlazeError(.io, "cannot create \(outputDirectory.path): \(error.localizedDescription)")
        }
        try OutputFiles.write(items)
        return items.map(\.url)
    }

    /// Bundles nest at most this deep (MediaPipe's gesture bundle holds two `.task` bundles).
    static let maximumBundleDepth = 2

    /// The distinct `.tflite` entries of the bundle `bytes` and of the `.task` bundles inside it, in
    /// archive order, each with its path (`outer.task/inner.task/m.tflite`) for messages. The
    /// declared inflated sizes of the models and of the inner bundles all come out of `budget`,
    /// checked before anything is inflated.
    static func tfliteEntries(
        _ bytes: [UInt8], path: String, depth: Int, budget: inout Int
    ) throws -> [(path: String, archive: ZipArchive, entry: ZipEntry)] {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: bytes) } catch let e as BlazeError { throw e.within(path) }
        var seenOffsets = Set<Int>()
        var wanted: [ZipEntry] = []
        for entry in archive.entries where !entry.isDirectory {
            let name = entry.name.lowercased()
            guard name.hasSuffix(".tflite") || name.hasSuffix(".task"), seenOffsets.insert(entry.localHeaderOffset).inserted else { continue }
            wanted.append(entry)
        }
        let declared = wanted.reduce(0) { $0 + max(0, $1.uncompressedSize) }
        guard declared <= budget else {
            throw BlazeError(
                .unsupported, "the models and bundles inside declare \(declared) inflated bytes, more than the \(maximumBundleInflatedBytes)-byte limit of one bundle",
                context: path)
        }
        budget -= declared
        var found: [(path: String, archive: ZipArchive, entry: ZipEntry)] = []
        for entry in wanted {
            let entryPath = "\(path)/\(entry.name)"
            if entry.name.lowercased().hasSuffix(".tflite") {
                found.append((entryPath, archive, entry))
                continue
            }
            guard depth + 1 < maximumBundleDepth else {
                throw BlazeError(.unsupported, "bundle nested more than \(maximumBundleDepth) deep", context: entryPath)
            }
            let inner: [UInt8]
            do { inner = try archive.extract(entry) } catch let e as BlazeError { throw e.within(path) }
            found += try tfliteEntries(inner, path: entryPath, depth: depth + 1, budget: &budget)
        }
        return found
    }
}
