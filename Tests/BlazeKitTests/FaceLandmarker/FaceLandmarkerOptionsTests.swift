import BlazeModels
import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// Option checks and model loading: each bad input is its own typed, descriptive error.
@Suite("FaceLandmarker options")
struct FaceLandmarkerOptionsTests {
    final class Delegate: FaceLandmarkerLiveStreamDelegate {
        func faceLandmarker(
            _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    @Test func invalidOptionsAreRejected() throws {
        func error(_ configure: (inout FaceLandmarkerOptions) -> Void) -> FaceLandmarkerError? {
            var options = FaceLandmarkerOptions()
            configure(&options)
            do { _ = try FaceLandmarker(options: options); return nil } catch { return error as? FaceLandmarkerError }
        }
        #expect(error { $0.numFaces = 0 } == .invalidNumFaces(0))
        #expect(error { $0.numFaces = FaceLandmarkerOptions.maximumNumFaces + 1 } == .invalidNumFaces(65))
        #expect(error { $0.minFaceDetectionConfidence = 1.5 } == .invalidConfidence(name: "minFaceDetectionConfidence", value: 1.5))
        #expect(error { $0.minTrackingConfidence = -0.1 } == .invalidConfidence(name: "minTrackingConfidence", value: -0.1))
        if case .invalidConfidence(let name, _) = error({ $0.minFacePresenceConfidence = .nan }) {
            #expect(name == "minFacePresenceConfidence")
        } else {
            Issue.record("NaN presence confidence accepted")
        }
        #expect(error { $0.numThreads = 0 } == .invalidOption("numThreads must be at least 1, got 0"))
        #expect(error { $0.runningMode = .liveStream } == .missingLiveStreamDelegate(option: "faceLandmarkerLiveStreamDelegate"))
        let delegate = Delegate()
        #expect(error { $0.faceLandmarkerLiveStreamDelegate = delegate } == .unexpectedLiveStreamDelegate(option: "faceLandmarkerLiveStreamDelegate", runningMode: .image))
        #expect(error { $0.baseOptions.modelAssetPath = "/models/face_landmarker.task" } == .unconvertedModel(path: "/models/face_landmarker.task"))
        guard case .modelNotFound(let message, _) = error({ $0.baseOptions.modelAssetPath = "/no/such/folder" }) else {
            Issue.record("a missing folder was accepted")
            return
        }
        #expect(message.contains("/no/such/folder"))
        let text = FaceLandmarkerError.missingLiveStreamDelegate(option: "faceLandmarkerLiveStreamDelegate").localizedDescription
        #expect(text.contains("weakly"), "localizedDescription explains itself: \(text)")
    }

    /// A model folder as `blaze-model convert face_landmarker.task --output-dir` leaves it (the
    /// detector named `face_detector.bkm`) is accepted; one missing the blendshape net is not
    /// when blendshapes are asked for, and says which file is missing.
    @Test func modelFolderFromTheTaskBundle() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let fm = FileManager.default
        try fm.copyItem(at: try BundledModel.faceDetectionShortRange.url(), to: folder.url.appendingPathComponent("face_detector.bkm"))
        try fm.copyItem(at: try BundledModel.faceLandmarksDetector.url(), to: folder.url.appendingPathComponent("face_landmarks_detector.bkm"))
        var options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = folder.url.path
        options.numFaces = 3
        let result = try FaceLandmarker(options: options).detect(image: try FaceTestData.image("three_people.jpg"))
        #expect(result.faceLandmarks.count == 3)
        options.outputFaceBlendshapes = true
        #expect {
            _ = try FaceLandmarker(options: options)
        } throws: { error in
            guard case .modelNotFound(let message, _) = error as? FaceLandmarkerError else { return false }
            return message.contains("face_blendshapes.bkm")
        }
        // The wrong net under the right name: a shape error, not a crash.
        try fm.removeItem(at: folder.url.appendingPathComponent("face_landmarks_detector.bkm"))
        try fm.copyItem(at: try BundledModel.handLandmarkLite.url(), to: folder.url.appendingPathComponent("face_landmarks_detector.bkm"))
        options.outputFaceBlendshapes = false
        #expect {
            _ = try FaceLandmarker(options: options)
        } throws: { error in
            guard case .invalidModel(let message, _) = error as? FaceLandmarkerError else { return false }
            return message.contains("not a face mesh net")
        }
    }

    /// A corrupt model: `.invalidModel` carrying the engine's `BlazeError` (kind `.corruptModel`).
    @Test func corruptModelKeepsTheEngineKind() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(at: try BundledModel.faceDetectionShortRange.url(), to: folder.url.appendingPathComponent("face_detector.bkm"))
        try Data(repeating: 0x5A, count: 1000).write(to: folder.url.appendingPathComponent("face_landmarks_detector.bkm"))
        var options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = folder.url.path
        #expect {
            _ = try FaceLandmarker(options: options)
        } throws: { error in
            (error as? FaceLandmarkerError)?.underlyingError?.kind == .corruptModel
        }
    }

    @Test func closedLandmarkerRefusesCalls() throws {
        let landmarker = try FaceLandmarkerTestData.landmarker()
        landmarker.close()
        landmarker.close()
        #expect(throws: FaceLandmarkerError.closed(method: "detect(image:)")) {
            try landmarker.detect(image: try FaceTestData.image("grace_hopper.jpg"))
        }
    }

    /// `numThreads` threads for one call's three nets, which run one after the other on them.
    @Test func oneCallsNetsShareOneSetOfThreads() throws {
        var options = FaceLandmarkerOptions()
        options.outputFaceBlendshapes = true
        let sessions = try FaceLandmarkerModels.load(options).makeSessions(threads: 3)
        let blendshapes = try #require(sessions.blendshapes)
        #expect(sessions.detector.threads == 3)
        #expect(sessions.mesh?.workers === sessions.detector.workers && blendshapes.workers === sessions.detector.workers)
    }
}
