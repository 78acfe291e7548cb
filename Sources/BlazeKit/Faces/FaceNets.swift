import BlazeEngine
import BlazeModels
import Foundation

/// The nets one `FaceDetector` needs for its options, loaded once and shared by every call.
struct FaceNets: Sendable {
    let detector: Model
    let mesh: Model?
    let blendshapes: Model?
    let threadCount: Int?

    /// Loads only what `options` need (docs/pipelines.md §3, §7.1) and checks the tensor shapes the
    /// pipeline relies on.
    init(options: FaceDetectorOptions, modelDirectory: URL?) throws {
        let detectorModel: BundledModel = options.performanceMode == .fast ? .faceDetectionShortRange : .faceDetectionFullRangeSparse
        let config = FaceDetectorConfiguration(options.performanceMode)
        detector = try detectorModel.load(directoryOverride: modelDirectory)
        try Self.expect(
            detector, detectorModel, inputs: [[1, config.inputSize, config.inputSize, 3]],
            outputs: [[1, config.anchorCount, 16], [1, config.anchorCount, 1]])
        if options.needsMesh {
            let model = try BundledModel.faceLandmarksDetector.load(directoryOverride: modelDirectory)
            try Self.expect(
                model, .faceLandmarksDetector, inputs: [[1, meshInputSize, meshInputSize, 3]],
                outputs: [[1, 1, 1, 3 * meshPointCount], [1, 1, 1, 1]], allowExtraOutputs: true)
            mesh = model
        } else {
            mesh = nil
        }
        if options.needsBlendshapes {
            let model = try BundledModel.faceBlendshapes.load(directoryOverride: modelDirectory)
            try Self.expect(
                model, .faceBlendshapes, inputs: [[1, blendshapeLandmarkIndices.count, 2]],
                outputs: [[faceBlendshapeNames.count]])
            blendshapes = model
        } else {
            blendshapes = nil
        }
        threadCount = options.threadCount
    }

    private static func expect(
        _ model: Model, _ which: BundledModel, inputs: [[Int]], outputs: [[Int]],
        allowExtraOutputs: Bool = false
    ) throws {
        let actualOutputs = model.outputs.map(\.shape)
        let outputsMatch = allowExtraOutputs ? Array(actualOutputs.prefix(outputs.count)) == outputs : actualOutputs == outputs
        guard model.inputs.map(\.shape) == inputs, outputsMatch else {
            throw BlazeError(
                .shapeMismatch, "expected inputs \(inputs) and outputs \(outputs), got \(model.inputs.map(\.shape)) and \(actualOutputs)",
                context: which.fileName)
        }
    }

    func makeSessions() -> FaceSessions {
        FaceSessions(detector: detector, mesh: mesh, blendshapes: blendshapes, threads: threadCount)
    }
}

/// Mesh v2 (Tasks `face_landmarks_detector`): 256² input, 478 points.
let meshInputSize = 256
let meshPointCount = 478

/// One set of sessions: used by one call at a time (a `SessionPool` lends it out).
final class FaceSessions: @unchecked Sendable {
    // @unchecked: a set is owned by exactly one call while a `SessionPool` lends it.
    let detector: Session
    let mesh: Session?
    let blendshapes: Session?

    /// Sessions of the nets given, on one set of `threads` threads: the nets run one after the other.
    init(detector: Model, mesh: Model?, blendshapes: Model?, threads: Int?) {
        let workers = Model.sharedWorkers(threads: threads)
        self.detector = detector.makeSession(sharing: workers)
        self.mesh = mesh?.makeSession(sharing: workers)
        self.blendshapes = blendshapes?.makeSession(sharing: workers)
    }
}
