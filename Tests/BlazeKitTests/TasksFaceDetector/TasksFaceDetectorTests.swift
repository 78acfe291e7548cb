import BlazeTestSupport
import BlazeImageIO
import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// MediaPipe 0.10.21's Tasks FaceDetector (IMAGE mode) on every test photo, with its default
/// options and with looser ones: `Fixtures/faces/tasks_face_detector.json`, made by
/// `Tools/fixtures/faces/make_face_detector_reference.py`.
struct TasksFaceDetectorReference: Decodable {
    struct Detection: Decodable {
        let score: Float
        let box: [Double]
        let keypoints: [[Float]]
    }
    struct Photo: Decodable {
        let width: Int
        let height: Int
        let detections: [Detection]
    }
    struct Run: Decodable {
        let min_detection_confidence: Float
        let min_suppression_threshold: Float
        let photos: [String: Photo]
    }
    let runs: [String: Run]
}

@Suite("Tasks FaceDetector")
struct TasksFaceDetectorTests {
    static let reference = Result {
        try JSONDecoder().decode(TasksFaceDetectorReference.self, from: fixtureData("faces/tasks_face_detector.json"))
    }

    /// Same detections in the same order (descending score): keypoints, boxes (whole pixels,
    /// clamped as MediaPipe does) and scores within 3× the worst measured (docs/testing.md), with a
    /// floor of the reference's rounding (6 decimals). A crop that rounded OpenCV's sample ties to
    /// even instead of taking OpenCV's own positions put two faces of three_people 0.001–0.002 low.
    static let scoreTolerance: Float = 2e-6
    static let keypointTolerance: Float = 2e-6
    static let boxTolerance: Double = 0
    @Test(arguments: ["default", "loose"])
    func matchesMediaPipe(run name: String) throws {
        let run = try #require(try Self.reference.get().runs[name])
        var options = TasksFaceDetectorOptions()
        options.minDetectionConfidence = run.min_detection_confidence
        options.minSuppressionThreshold = run.min_suppression_threshold
        let detector = try TasksFaceDetector(options: options)
        #expect(run.photos.count == FaceTestData.photoNames.count)
        var worstScore: Float = 0, worstKeypoint: Float = 0, worstBox = 0.0
        for photo in FaceTestData.photoNames {
            let ref = try #require(run.photos[photo])
            let result = try detector.detect(image: try FaceTestData.image(photo))
            #expect(result.detections.count == ref.detections.count, "\(name) \(photo): \(result.detections.count) vs \(ref.detections.count)")
            for (ours, theirs) in zip(result.detections, ref.detections) {
                let scoreError = abs(ours.categories[0].score - theirs.score)
                worstScore = worse(worstScore, scoreError)
                #expect(scoreError <= Self.scoreTolerance, "\(name) \(photo): score \(ours.categories[0].score) vs \(theirs.score)")
                let box = ours.boundingBox
                let boxError = [
                    abs(box.x - theirs.box[0]), abs(box.y - theirs.box[1]), abs(box.width - theirs.box[2]), abs(box.height - theirs.box[3])
                ].worstError()
                worstBox = worse(worstBox, boxError)
                #expect(boxError <= Self.boxTolerance, "\(name) \(photo): box \(box) vs \(theirs.box)")
                #expect(ours.keypoints.count == 6 && theirs.keypoints.count == 6)
                for (k, r) in zip(ours.keypoints, theirs.keypoints) {
                    let keypointError = worse(abs(k.x - r[0]), abs(k.y - r[1]))
                    worstKeypoint = worse(worstKeypoint, keypointError)
                    #expect(keypointError <= Self.keypointTolerance, "\(name) \(photo): keypoint \(k) vs \(r)")
                }
                #expect(box.x == box.x.rounded() && box.width == box.width.rounded(), "whole pixels")
                #expect(ours.keypoints.map(\.label) == FaceKeypoint.allCases.map { Optional($0.name) })
            }
        }
        print("[Tasks FaceDetector] \(name): worst score difference \(worstScore), keypoint \(worstKeypoint), box \(worstBox) px")
    }

    /// The delegate rules of MediaPipe's tasks, with the same error type as the landmarkers
    /// (`TasksError`) and the detector's own delegate property named in the message.
    @Test func liveStreamDelegateRules() {
        var options = TasksFaceDetectorOptions()
        options.runningMode = .liveStream
        #expect(throws: TasksError.missingLiveStreamDelegate(option: "faceDetectorLiveStreamDelegate")) { try TasksFaceDetector(options: options) }
        let text = TasksError.missingLiveStreamDelegate(option: "faceDetectorLiveStreamDelegate").localizedDescription
        #expect(text.contains("faceDetectorLiveStreamDelegate") && text.contains("weakly"), "\(text)")
        options.minSuppressionThreshold = 2
        #expect(throws: TasksError.invalidConfidence(name: "minSuppressionThreshold", value: 2)) { try TasksFaceDetector(options: options) }
        // One error type across the tasks: a hand landmarker's error is caught as the same type.
        var hands = HandLandmarkerOptions()
        hands.numHands = 0
        do {
            _ = try HandLandmarker(options: hands)
            Issue.record("numHands 0 was accepted")
        } catch let e as TasksError {
            #expect(e == .invalidNumHands(0))
        } catch {
            Issue.record("not a TasksError: \(error)")
        }
    }

    /// No tracking in video mode: every frame runs the detector, results equal image mode;
    /// timestamps must increase; modes are enforced.
    @Test func videoModeIsPerFrameDetection() throws {
        let image = try FaceTestData.image("three_people.jpg")
        let still = try TasksFaceDetector(options: TasksFaceDetectorOptions()).detect(image: image)
        var options = TasksFaceDetectorOptions()
        options.runningMode = .video
        let detector = try TasksFaceDetector(options: options)
        for t in [0, 33, 66] {
            let result = try detector.detect(videoFrame: image, timestampInMilliseconds: t)
            #expect(result.detections == still.detections && result.timestampInMilliseconds == t)
        }
        #expect(throws: TasksFaceDetectorError.nonIncreasingTimestamp(previous: 66, received: 66)) {
            try detector.detect(videoFrame: image, timestampInMilliseconds: 66)
        }
        #expect(throws: TasksFaceDetectorError.runningModeMismatch(method: "detect(image:)", runningMode: .video)) {
            try detector.detect(image: image)
        }
    }

    /// Live stream without sleeps: frames sent while the worker is held inside frame 1 are
    /// dropped; the stream gives the accepted frames' results in order, then ends on `close()`.
    @Test func liveStreamDropsWhileBusyAndDeliversInOrder() async throws {
        let (detector, results) = try TasksFaceDetector.liveStream(options: TasksFaceDetectorOptions())
        let image = try FaceTestData.image("three_people.jpg")
        let gate = WorkerGate(holdingAt: 1)
        detector.beforeLiveStreamFrame = gate.hook
        #expect(try detector.detectAsync(image: image, timestampInMilliseconds: 1))
        gate.waitUntilHeld()
        #expect(try detector.detectAsync(image: image, timestampInMilliseconds: 2) == false)
        gate.release()
        var delivered: [Int] = []
        for await outcome in results {
            let result = try outcome.get()
            delivered.append(result.timestampInMilliseconds)
            #expect(result.detections.count == 3)
            if delivered.count == 1 {
                #expect(try detector.detectAsync(image: image, timestampInMilliseconds: 3))
            } else {
                detector.close()
            }
        }
        #expect(delivered == [1, 3])
        #expect(detector.droppedFrameCount == 1)
    }

    @Test func badOptionsAreTypedErrors() {
        var options = TasksFaceDetectorOptions()
        options.minSuppressionThreshold = 2
        #expect(throws: TasksFaceDetectorError.invalidConfidence(name: "minSuppressionThreshold", value: 2)) {
            _ = try TasksFaceDetector(options: options)
        }
        options = TasksFaceDetectorOptions()
        options.runningMode = .liveStream
        #expect(throws: TasksFaceDetectorError.self) { _ = try TasksFaceDetector(options: options) }
        options = TasksFaceDetectorOptions()
        options.baseOptions.modelAssetPath = "/nowhere"
        #expect(throws: TasksFaceDetectorError.modelNotFound("model folder /nowhere does not exist")) {
            _ = try TasksFaceDetector(options: options)
        }
    }
}
