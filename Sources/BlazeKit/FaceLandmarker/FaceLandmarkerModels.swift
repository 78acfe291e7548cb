import BlazeEngine
import BlazeModels
import Foundation

/// The nets of a face landmarker, loaded and checked once, shared by all its sessions: the
/// short-range face detector, the 478-point mesh net and (with `outputFaceBlendshapes`) the
/// blendshape net — the three nets of MediaPipe's `face_landmarker.task`.
struct FaceLandmarkerModels: Sendable {
    let detector: Model
    let mesh: Model
    let blendshapes: Model?

    /// Names accepted in a model folder, first match wins: the bundle's name, then the name
    /// `blaze-model convert face_landmarker.task` gives the detector.
    static let detectorNames = [BundledModel.faceDetectionShortRange.fileName, "face_detector.bkm"]

    static func load(_ options: FaceLandmarkerOptions) throws -> FaceLandmarkerModels {
        let wantsBlendshapes = options.outputFaceBlendshapes
        var wanted: [[String]] = [detectorNames, [BundledModel.faceLandmarksDetector.fileName]]
        if wantsBlendshapes { wanted.append([BundledModel.faceBlendshapes.fileName]) }
        let files = try locate(
            wanted, bundled: [.faceDetectionShortRange, .faceLandmarksDetector, .faceBlendshapes],
            modelAssetPath: options.baseOptions.modelAssetPath)
        let detector = try loadDetector(files[0])
        let mesh = try TasksError.loadModel(files[1])
        try expect(
            mesh, files[1], "a face mesh net", inputs: [[1, meshInputSize, meshInputSize, 3]],
            outputs: [[1, 1, 1, 3 * meshPointCount], [1, 1, 1, 1]], allowExtraOutputs: true)
        var blendshapes: Model?
        if wantsBlendshapes {
            let model = try TasksError.loadModel(files[2])
            try expect(
                model, files[2], "a blendshape net", inputs: [[1, blendshapeLandmarkIndices.count, 2]],
                outputs: [[faceBlendshapeNames.count]])
            blendshapes = model
        }
        return FaceLandmarkerModels(detector: detector, mesh: mesh, blendshapes: blendshapes)
    }

    /// The short-range face detector at `url`, checked.
    static func loadDetector(_ url: URL) throws -> Model {
        let config = FaceDetectorConfiguration(.fast)
        let detector = try TasksError.loadModel(url)
        try expect(
            detector, url, "a face detector", inputs: [[1, config.inputSize, config.inputSize, 3]],
            outputs: [[1, config.anchorCount, 16], [1, config.anchorCount, 1]])
        return detector
    }

    /// The files of `wanted` (per model, the names accepted, first match wins): from the folder
    /// `modelAssetPath`, or the bundled models `bundled[i]` when it is nil.
    static func locate(_ wanted: [[String]], bundled: [BundledModel], modelAssetPath: String?) throws -> [URL] {
        guard let path = modelAssetPath else {
            return try wanted.indices.map { i in
                do { return try bundled[i].url() } catch { throw FaceLandmarkerError.modelNotFound("\(error)", underlying: error as? BlazeError) }
            }
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "task" || ext == "tflite" { throw FaceLandmarkerError.unconvertedModel(path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FaceLandmarkerError.modelNotFound("model folder \(path) does not exist")
        }
        let needed = wanted.map { $0.joined(separator: " or ") }.joined(separator: ", ")
        guard isDirectory.boolValue else {
            throw FaceLandmarkerError.modelNotFound("modelAssetPath must be a folder holding \(needed), got the file \(path)")
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        return try wanted.map { names in
            for name in names {
                let url = folder.appendingPathComponent(name)
                if FileManager.default.isReadableFile(atPath: url.path) { return url }
            }
            throw FaceLandmarkerError.modelNotFound("\(folder.appendingPathComponent(names[0]).path) not found: the folder must hold \(needed) (from `blaze-model convert`)")
        }
    }

    private static func expect(
        _ model: Model, _ url: URL, _ what: String, inputs: [[Int]], outputs: [[Int]],
        allowExtraOutputs: Bool = false
    ) throws {
        let actualOutputs = model.outputs.map(\.shape)
        let outputsMatch = allowExtraOutputs ? Array(actualOutputs.prefix(outputs.count)) == outputs : actualOutputs == outputs
        guard model.inputs.map(\.shape) == inputs, outputsMatch else {
            throw FaceLandmarkerError.invalidModel(
                "\(url.path) is not \(what): expected inputs \(inputs) and outputs \(outputs), got \(model.inputs.map(\.shape)) and \(actualOutputs)")
        }
    }

    func makeSessions(threads: Int?) -> FaceSessions {
        FaceSessions(detector: detector, mesh: mesh, blendshapes: blendshapes, threads: threads)
    }
}
