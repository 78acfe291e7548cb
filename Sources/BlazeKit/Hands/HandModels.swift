import BlazeEngine
import BlazeModels
import Foundation

/// The two nets of a hand landmarker, loaded and checked once, shared by all its sessions.
struct HandModels: Sendable {
    let palm: Model
    let landmark: Model
    /// Palm detector outputs: boxes (2016 × 18) and scores (2016).
    let palmBoxesOutput: Int
    let palmScoresOutput: Int

    static let palmInputShape = [1, 192, 192, 3]
    static let landmarkInputShape = [1, 224, 224, 3]
    static let anchorCount = 2016

    init(palm: Model, landmark: Model, palmPath: String, landmarkPath: String) throws {
        guard palm.inputs.count == 1, palm.inputs[0].shape == Self.palmInputShape else {
            throw HandLandmarkerError.invalidModel("\(palmPath) is not a palm detector: expected one input \(Self.palmInputShape), got \(palm.inputs.map(\.shape))")
        }
        let counts = palm.outputs.map { $0.shape.reduce(1, *) }
        guard counts.count == 2, let boxes = counts.firstIndex(of: Self.anchorCount * 18),
            let scores = counts.firstIndex(of: Self.anchorCount)
        else {
            throw HandLandmarkerError.invalidModel(
                "\(palmPath) is not a palm detector: expected outputs of \(Self.anchorCount)×18 and \(Self.anchorCount) values, got \(palm.outputs.map(\.shape))")
        }
        guard landmark.inputs.count == 1, landmark.inputs[0].shape == Self.landmarkInputShape else {
            throw HandLandmarkerError.invalidModel("\(landmarkPath) is not a hand landmark net: expected one input \(Self.landmarkInputShape), got \(landmark.inputs.map(\.shape))")
        }
        // Tensor order Identity (63), Identity_1 (presence), Identity_2 (handedness), Identity_3 (63).
        guard landmark.outputs.map({ $0.shape.reduce(1, *) }) == [63, 1, 1, 63] else {
            throw HandLandmarkerError.invalidModel("\(landmarkPath) is not a hand landmark net: expected outputs of [63, 1, 1, 63] values, got \(landmark.outputs.map(\.shape))")
        }
        self.palm = palm
        self.landmark = landmark
        palmBoxesOutput = boxes
        palmScoresOutput = scores
    }

    /// The full pair's file names in a converted MediaPipe `hand_landmarker.task` (the same nets).
    static let tasksFileNames: [BundledModel: String] = [
        .palmDetectionFull: "hand_detector.bkm", .handLandmarkFull: "hand_landmarks_detector.bkm"
    ]

    /// Whether `folder` holds a hand model pair of `variant` under either naming.
    static func folderHasModels(_ folder: URL, variant: HandModelVariant) -> Bool {
        let pair: [BundledModel] = variant == .full ? [.palmDetectionFull, .handLandmarkFull] : [.palmDetectionLite, .handLandmarkLite]
        return pair.allSatisfy { m in
            [m.fileName, tasksFileNames[m]].compactMap { $0 }.contains {
                FileManager.default.isReadableFile(atPath: folder.appendingPathComponent($0).path)
            }
        }
    }

    /// Loads the variant's pair from `baseOptions.modelAssetPath` (a folder) or the bundle.
    static func load(_ options: HandLandmarkerOptions) throws -> HandModels {
        let (palmModel, landmarkModel): (BundledModel, BundledModel) =
            switch options.modelVariant {
            case .full: (.palmDetectionFull, .handLandmarkFull)
            case .lite: (.palmDetectionLite, .handLandmarkLite)
            }
        guard let path = options.baseOptions.modelAssetPath else {
            func bundled(_ m: BundledModel) throws -> (Model, String) {
                let url: URL
                do { url = try m.url() } catch { throw HandLandmarkerError.modelNotFound("\(error)", underlying: error as? BlazeError) }
                return (try TasksError.loadModel(url), url.path)
            }
            let (p, pp) = try bundled(palmModel), (l, lp) = try bundled(landmarkModel)
            return try HandModels(palm: p, landmark: l, palmPath: pp, landmarkPath: lp)
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "task" || ext == "tflite" { throw HandLandmarkerError.unconvertedModel(path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HandLandmarkerError.modelNotFound("model folder \(path) does not exist")
        }
        guard isDirectory.boolValue else {
            throw HandLandmarkerError.modelNotFound("modelAssetPath must be a folder holding \(palmModel.fileName) and \(landmarkModel.fileName), got the file \(path)")
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        func fromFolder(_ m: BundledModel) throws -> (Model, String) {
            var url = folder.appendingPathComponent(m.fileName)
            // A converted hand_landmarker.task (or gesture bundle) names the full pair as MediaPipe does.
            if !FileManager.default.isReadableFile(atPath: url.path), let tasksName = tasksFileNames[m] {
                url = folder.appendingPathComponent(tasksName)
            }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw HandLandmarkerError.modelNotFound(
                    "\(url.path) not found: the folder must hold \(palmModel.fileName) and \(landmarkModel.fileName) (from `blaze-model convert`)")
            }
            return (try TasksError.loadModel(url), url.path)
        }
        let (p, pp) = try fromFolder(palmModel), (l, lp) = try fromFolder(landmarkModel)
        return try HandModels(palm: p, landmark: l, palmPath: pp, landmarkPath: lp)
    }
}

/// One palm session and one landmark session: what one call needs to run the pipeline.
/// Not thread-safe; a `SessionPool` lends each to one call at a time.
final class HandSessions {
    /// The threads of every net below, which run one after the other.
    let workers: WorkerPool
    let palm: Session
    /// Runs one hand's landmark net over all the threads.
    let landmark: Session
    /// With several threads and hands: one single-threaded landmark session per hand that runs
    /// at once on `workers` (`HandPipeline.landmarks(in:rois:sessions:)`).
    let handLandmarks: [Session]

    init(models: HandModels, threads: Int?, numHands: Int) {
        workers = Model.sharedWorkers(threads: threads)
        palm = models.palm.makeSession(sharing: workers)
        landmark = models.landmark.makeSession(sharing: workers)
        let sideBySide = min(workers.threadCount, numHands)
        handLandmarks = sideBySide > 1 ? (0..<sideBySide).map { _ in models.landmark.makeSession(threads: 1) } : []
    }
}
