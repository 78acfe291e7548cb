import BlazeTestSupport
import Foundation
import Testing
@testable import BlazeKit

/// Typed errors as MediaPipe raises them: options, running modes, delegates, model files.
@Suite("Hand options and errors")
struct HandOptionsTests {
    final class NoopDelegate: HandLandmarkerLiveStreamDelegate {
        func handLandmarker(
            _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    static func make(_ configure: (inout HandLandmarkerOptions) -> Void) throws -> HandLandmarker {
        var options = HandLandmarkerOptions()
        options.modelVariant = .lite
        configure(&options)
        return try HandLandmarker(options: options)
    }

    @Test func defaultsAreMediaPipes() {
        let o = HandLandmarkerOptions()
        #expect(o.runningMode == .image && o.numHands == 1 && o.modelVariant == .full)
        #expect(o.minHandDetectionConfidence == 0.5 && o.minHandPresenceConfidence == 0.5 && o.minTrackingConfidence == 0.5)
        #expect(o.baseOptions.modelAssetPath == nil && o.handLandmarkerLiveStreamDelegate == nil)
        #expect(!o.mirrored && !o.smoothLandmarks)
    }

    @Test func invalidNumbersAreRejected() throws {
        #expect(throws: HandLandmarkerError.invalidNumHands(0)) { try Self.make { $0.numHands = 0 } }
        #expect(throws: HandLandmarkerError.invalidNumHands(65)) { try Self.make { $0.numHands = 65 } }
        #expect(throws: HandLandmarkerError.invalidNumHands(Int.max)) { try Self.make { $0.numHands = .max } }
        for value: Float in [-0.1, 1.5] {
            #expect(throws: HandLandmarkerError.invalidConfidence(name: "minHandDetectionConfidence", value: value)) {
                try Self.make { $0.minHandDetectionConfidence = value }
            }
            #expect(throws: HandLandmarkerError.invalidConfidence(name: "minHandPresenceConfidence", value: value)) {
                try Self.make { $0.minHandPresenceConfidence = value }
            }
            #expect(throws: HandLandmarkerError.invalidConfidence(name: "minTrackingConfidence", value: value)) {
                try Self.make { $0.minTrackingConfidence = value }
            }
        }
        #expect {
            try Self.make { $0.minTrackingConfidence = .nan }
        } throws: { error in
            if case .invalidConfidence(name: "minTrackingConfidence", _) = error as? HandLandmarkerError { return true }
            return false
        }
        // The boundaries are allowed.
        _ = try Self.make {
            $0.minHandDetectionConfidence = 0
            $0.minHandPresenceConfidence = 1
        }
    }

    @Test func delegateMustMatchTheRunningMode() throws {
        let delegate = NoopDelegate()
        #expect(throws: HandLandmarkerError.missingLiveStreamDelegate(option: "handLandmarkerLiveStreamDelegate")) { try Self.make { $0.runningMode = .liveStream } }
        for mode in [RunningMode.image, .video] {
            #expect(throws: HandLandmarkerError.unexpectedLiveStreamDelegate(option: "handLandmarkerLiveStreamDelegate", runningMode: mode)) {
                try Self.make {
                    $0.runningMode = mode
                    $0.handLandmarkerLiveStreamDelegate = delegate
                }
            }
        }
        _ = try Self.make {
            $0.runningMode = .liveStream
            $0.handLandmarkerLiveStreamDelegate = delegate
        }
        withExtendedLifetime(delegate) {}
    }

    @Test func methodsMustMatchTheRunningMode() throws {
        let image = try VisionImage(width: 16, height: 16, format: .rgb8)
        let delegate = NoopDelegate()
        let forImages = try Self.make { $0.runningMode = .image }
        let forVideo = try Self.make { $0.runningMode = .video }
        let forLive = try Self.make {
            $0.runningMode = .liveStream
            $0.handLandmarkerLiveStreamDelegate = delegate
        }
        func mismatch(_ mode: RunningMode, _ body: () throws -> Void) {
            #expect {
                try body()
            } throws: { error in
                guard case .runningModeMismatch(_, let m) = error as? HandLandmarkerError else { return false }
                return m == mode && "\(error)".contains("use ")
            }
        }
        mismatch(.image) { _ = try forImages.detect(videoFrame: image, timestampInMilliseconds: 1) }
        mismatch(.image) { try forImages.detectAsync(image: image, timestampInMilliseconds: 1) }
        mismatch(.video) { _ = try forVideo.detect(image: image) }
        mismatch(.video) { try forVideo.detectAsync(image: image, timestampInMilliseconds: 1) }
        mismatch(.liveStream) { _ = try forLive.detect(image: image) }
        mismatch(.liveStream) { _ = try forLive.detect(videoFrame: image, timestampInMilliseconds: 1) }
        #expect(try forImages.detect(image: image).landmarks.isEmpty)
        withExtendedLifetime(delegate) {}
    }

    @Test func mediaPipeModelFilesAskForConversion() throws {
        for path in ["/models/hand_landmarker.task", "palm_detection_full.TFLITE"] {
            #expect(throws: HandLandmarkerError.unconvertedModel(path: path)) {
                try Self.make { $0.baseOptions.modelAssetPath = path }
            }
            #expect("\(HandLandmarkerError.unconvertedModel(path: path))".contains("blaze-model convert"))
        }
    }

    @Test func missingOrWrongModelFilesAreTypedErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blazekit-hand-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func expectError(_ path: String, _ check: (HandLandmarkerError) -> Bool, variant: HandModelVariant = .full) {
            #expect {
                var options = HandLandmarkerOptions()
                options.modelVariant = variant
                options.baseOptions.modelAssetPath = path
                _ = try HandLandmarker(options: options)
            } throws: { error in
                guard let e = error as? HandLandmarkerError else { return false }
                return check(e)
            }
        }
        func notFound(_ e: HandLandmarkerError) -> Bool { if case .modelNotFound = e { true } else { false } }
        func invalid(_ e: HandLandmarkerError) -> Bool { if case .invalidModel = e { true } else { false } }
        let bundled = RepoPaths.bundledModels
        expectError(folder.appendingPathComponent("missing").path, notFound)  // no such folder
        expectError(folder.path, notFound)  // empty folder
        expectError(bundled.appendingPathComponent("hand_landmark_full.bkm").path, notFound)  // a file
        /// Copies the bundled model `source` into the folder under the file name `name`.
        func place(_ source: String, as name: String) throws {
            try FileManager.default.copyItem(
                at: bundled.appendingPathComponent("\(source).bkm"), to: folder.appendingPathComponent("\(name).bkm"))
        }
        // A face detector where the palm detector should be.
        try place("face_detection_short_range", as: "palm_detection_full")
        try place("hand_landmark_full", as: "hand_landmark_full")
        expectError(folder.path, invalid)
        // A palm detector where the landmark net should be.
        try place("palm_detection_lite", as: "palm_detection_lite")
        try place("palm_detection_lite", as: "hand_landmark_lite")
        expectError(folder.path, invalid, variant: .lite)
        // Garbage: the engine's own error, kind included, travels with the landmarker's.
        try Data(repeating: 0x5A, count: 1000).write(to: folder.appendingPathComponent("palm_detection_full.bkm"))
        expectError(folder.path) { e in
            guard case .invalidModel(let message, let underlying) = e else { return false }
            return underlying?.kind == .corruptModel && message.contains("palm_detection_full.bkm") && e.underlyingError == underlying
        }
        #expect(HandLandmarkerError.invalidNumHands(0).underlyingError == nil)
    }

    @Test func modelFolderWorks() throws {
        let landmarker = try HandLandmarker(modelPath: RepoPaths.bundledModels.path)
        #expect(landmarker.options.runningMode == .image && landmarker.options.numHands == 1)
        let result = try landmarker.detect(image: HandTestData.photo("hand_victory_white_bg.jpg"))
        #expect(result.landmarks.count == 1)
        #expect(result.handedness.first?.first?.categoryName == "Left")  // legacy reference says "Right"
    }
}
