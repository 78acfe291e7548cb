import BlazeTestSupport
import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// Records live-stream callbacks in arrival order.
final class FaceResultRecorder: FaceLandmarkerLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private(set) var timestamps: [Int] = []
    private(set) var faceCounts: [Int] = []
    private(set) var onMainThread = false

    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            if Thread.isMainThread { onMainThread = true }
            timestamps.append(timestampInMilliseconds)
            faceCounts.append(result?.faceLandmarks.count ?? -1)
        }
        arrived.signal()
    }

    func wait(for count: Int, seconds: Double = 60) -> Bool {
        for _ in 0..<count where arrived.wait(timeout: .now() + seconds) == .timedOut { return false }
        return true
    }

    var snapshot: (timestamps: [Int], faceCounts: [Int], onMain: Bool) { lock.withLock { (timestamps, faceCounts, onMainThread) } }
}

@Suite("FaceLandmarker live stream")
struct FaceLandmarkerLiveStreamTests {
    /// The drop rule, made deterministic by blocking the worker inside frame 10 (no sleeps, no
    /// timing assumptions): frames sent while it is busy are ignored, later ones accepted, and
    /// results arrive in timestamp order.
    @Test func framesArrivingWhileBusyAreDroppedAndResultsComeInOrder() throws {
        let recorder = FaceResultRecorder()
        let landmarker = try FaceLandmarkerTestData.landmarker {
            $0.runningMode = .liveStream
            $0.numFaces = 3
            $0.faceLandmarkerLiveStreamDelegate = recorder
        }
        let image = try FaceTestData.image("three_people.jpg")
        let gate = WorkerGate(holdingAt: 10)
        landmarker.beforeLiveStreamFrame = gate.hook
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 10))
        gate.waitUntilHeld()
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 20) == false)
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 30) == false)
        #expect(throws: FaceLandmarkerError.nonIncreasingTimestamp(previous: 30, received: 30)) {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: 30)
        }
        gate.release()
        #expect(recorder.wait(for: 1))
        // Accepted one at a time, each after the previous result arrived: never dropped.
        for t in [40, 50, 60] {
            #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: t))
            #expect(recorder.wait(for: 1))
        }
        let s = recorder.snapshot
        #expect(s.timestamps == [10, 40, 50, 60])
        #expect(s.faceCounts == [3, 3, 3, 3])
        #expect(!s.onMain)
        let stats = landmarker.statistics
        #expect(stats.droppedFrames == 2 && stats.framesProcessed == 4)
        #expect(stats.faceDetectionRuns == 1, "tracked after the first frame")
    }

    /// The AsyncStream form: every accepted frame's result in order, then the stream ends after
    /// `close()`; later calls throw `.closed`.
    @Test func asyncStreamDeliversThenFinishesOnClose() async throws {
        var options = FaceLandmarkerOptions()
        options.numFaces = 3
        let (landmarker, results) = try FaceLandmarker.liveStream(options: options)
        let image = try FaceTestData.image("three_people.jpg")
        let reached = DispatchSemaphore(value: 0)
        landmarker.beforeLiveStreamFrame = { _ in reached.signal() }
        var accepted: [Int] = []
        for t in [5, 15, 25] {
            if try landmarker.detectAsync(image: image, timestampInMilliseconds: t) {
                accepted.append(t)
                reached.wait()  // the frame has reached the worker (a dropped frame never does)
            }
        }
        landmarker.close()
        #expect(throws: FaceLandmarkerError.closed(method: "detectAsync(image:timestampInMilliseconds:)")) {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: 35)
        }
        var delivered: [Int] = []
        for await frame in results {
            delivered.append(frame.timestampInMilliseconds)
            #expect(try frame.result.get().faceLandmarks.count == 3)
        }
        #expect(delivered == accepted && accepted.first == 5)
    }
}
