import BlazeEngine
import Foundation

/// The converted MediaPipe models shipped with BlazeKit (`Models/bkm/*.bkm`, see Models/README.md),
/// and where to find them at run time.
///
/// Lookup: an explicit `directoryOverride` alone when given; otherwise the `BLAZEKIT_MODELS_DIR`
/// environment variable, the SwiftPM resource bundle next to the executable, then the source
/// checkout. Unlike
/// `Bundle.module`, a missing bundle is a thrown error, never a trap.
public enum BundledModel: String, CaseIterable, Sendable {
    case faceDetectionShortRange = "face_detection_short_range"
    case faceDetectionFullRangeSparse = "face_detection_full_range_sparse"
    case palmDetectionFull = "palm_detection_full"
    case palmDetectionLite = "palm_detection_lite"
    case handLandmarkFull = "hand_landmark_full"
    case handLandmarkLite = "hand_landmark_lite"
    case faceLandmarksDetector = "face_landmarks_detector"
    case faceBlendshapes = "face_blendshapes"

    /// File name, e.g. `palm_detection_full.bkm`.
    public var fileName: String { rawValue + ".bkm" }

    /// URL of this model's file; throws `BlazeError(.io)` listing the places searched.
    ///
    /// With `directoryOverride` only that folder is looked in: a folder that does not exist, or
    /// that lacks this model, is an error (never a silent fall back to the bundled copy).
    public func url(directoryOverride: URL? = nil) throws -> URL {
        if let folder = directoryOverride {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
                throw BlazeError(.io, "model folder \(folder.path) does not exist")
            }
            guard isDirectory.boolValue else {
                throw BlazeError(.io, "the model directory must be a folder holding \(fileName), got the file \(folder.path)")
            }
            let url = folder.appendingPathComponent(fileName)
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw BlazeError(.io, "\(url.path) not found: the model folder must hold \(fileName) (Models/bkm, or `blaze-model convert` output)")
            }
            return url
        }
        return try BundledModels.url(ofFile: fileName)
    }

    /// Loads the model.
    public func load(directoryOverride: URL? = nil) throws -> Model {
        try Model(contentsOf: url(directoryOverride: directoryOverride))
    }
}

public enum BundledModels {
    /// Name of the environment variable that overrides the model directory.
    public static let environmentVariable = "BLAZEKIT_MODELS_DIR"

    /// The bundled file `fileName` (also the nets outside `BundledModel`: the default gesture
    /// recognizer's `gesture_embedder.bkm` and `canned_gesture_classifier.bkm`); throws
    /// `BlazeError(.io)` listing the places searched.
    public static func url(ofFile fileName: String) throws -> URL {
        let candidates = searchDirectories()
        for dir in candidates {
            let url = dir.appendingPathComponent(fileName)
            if FileManager.default.isReadableFile(atPath: url.path) { return url }
        }
        throw BlazeError(.io, "cannot find \(fileName); searched \(candidates.map(\.path).joined(separator: ", ")). Set BLAZEKIT_MODELS_DIR or pass a model directory.")
    }

    static func searchDirectories() -> [URL] {
        var dirs: [URL] = []
        if let env = ProcessInfo.processInfo.environment[environmentVariable], !env.isEmpty {
            dirs.append(URL(fileURLWithPath: env, isDirectory: true))
        }
        let bundleName = "BlazeKit_BlazeModels.resources"
        for root in executableDirectories() {
            dirs.append(root.appendingPathComponent(bundleName).appendingPathComponent("bkm"))
        }
        // Source checkout (development builds): Models/bkm next to this file.
        dirs.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bkm"))
        return dirs
    }

    /// The folder of the running executable (SwiftPM puts the resource bundle beside it, also
    /// for test runners), and its parent. On Linux read from `/proc/self/exe`, without
    /// Foundation's `Bundle`, whose `allBundles` leaks at exit (LeakSanitizer fails every child
    /// process run under it).
    static func executableDirectories() -> [URL] {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, 4096)
        guard n > 0 else { return [] }
        let exe = URL(fileURLWithPath: String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let folder = exe.deletingLastPathComponent()
        return [folder, folder.deletingLastPathComponent()]
        #else
        let folder = Bundle.main.bundleURL
        return [folder, folder.deletingLastPathComponent()]
        #endif
    }
}
