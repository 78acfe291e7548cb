import BlazeTestSupport
import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// Records live-stream callbacks; checks they never overlap and never run on the main thread.
final class HandResultRecorder: HandLandmarkerLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private var inCallback = 0
    private(set) var timestamps: [Int] = []
    private(set) var handCounts: [Int] = []
    private(set) var errors: [String] = []
    private(set) var overlapped = false
    private(set) var onMainThread = false

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        lock.withLock {
            inCallback += 1
            if inCallback > 1 { overlapped = true }
            if Thread.isMainThread { onMainThread = true }
        }
        usleep(2000)  // widen the window in which an overlapping call would be seen
        lock.withLock {
            timestamps.append(timestampInMilliseconds)
            handCounts.append(result?.landmarks.count ?? -1)
            if let error { errors.append("\(error)") }
            if let result { precondition(result.timestampInMilliseconds == timestampInMilliseconds) }
            inCallback -= 1
        }
        arrived.signal()
    }

    /// Waits for `count` more callbacks (false on timeout).
    func wait(for count: Int, seconds: Double = 60) -> Bool {
        for _ in 0..<count where arrived.wait(timeout: .now() + seconds) == .timedOut { return false }
        return true
    }

    var snapshot: (timestamps: [Int], handCounts: [Int], errors: [String], overlapped: Bool, onMain: Bool) {
        lock.withLock { (timestamps, handCounts, errors, overlapped, onMainThread) }
    }
}

@Suite("Hand live stream")
struct HandLiveStreamTests {
    static func liveLandmarker(_ delegate: HandResultRecorder, numHands: Int = 2) throws -> HandLandmarker {
        try HandTestData.landmarker(.lite, numHands: numHands) {
            $0.runningMode = .liveStream
            $0.handLandmarkerLiveStreamDelegate = delegate
        }
    }

    /// The drop rule, made deterministic by blocking the worker inside frame 1: frames sent while
    /// it is busy are ignored (no callback, `detectAsync` returns false); once it is free, frames
    /// are accepted again. Timestamps are checked for dropped frames too.
    @Test func framesArrivingWhileBusyAreDropped() throws {
        let recorder = HandResultRecorder()
        let landmarker = try Self.liveLandmarker(recorder)
        let image = try HandTestData.photo("hagrid_none_00c84257.jpg")
        let gate = WorkerGate(holdingAt: 10)
        landmarker.beforeLiveStreamFrame = gate.hook
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 10))
        gate.waitUntilHeld()
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 20) == false)
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 30) == false)
        #expect(throws: HandLandmarkerError.nonIncreasingTimestamp(previous: 30, received: 30)) {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: 30)
        }
        gate.release()
        #expect(recorder.wait(for: 1))
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 40))
        #expect(recorder.wait(for: 1))
        let s = recorder.snapshot
        #expect(s.timestamps == [10, 40])
        #expect(s.handCounts == [2, 2])
        #expect(s.errors.isEmpty && !s.overlapped && !s.onMain)
        let stats = landmarker.statistics
        #expect(stats.droppedFrames == 2 && stats.framesProcessed == 2)
        // Frame 40 was tracked: no second palm detection.
        #expect(stats.palmDetectionRuns == 1)
    }

    /// Every accepted frame gets exactly one callback, in timestamp order, on one serial queue
    /// that is not the main thread; every frame offered while busy is dropped.
    @Test func callbacksComeInTimestampOrder() throws {
        // "Busy" is made a fact, not a timing guess: the worker blocks at the start of every
        // accepted frame until the next frame has been offered (and dropped).
        let recorder = HandResultRecorder()
        let landmarker = try Self.liveLandmarker(recorder)
        let gate = WorkerGate()
        landmarker.beforeLiveStreamFrame = gate.hook
        let frames = try HandVideoTests.frames()
        var timestamps: [Int] = []
        for round in 0..<3 { timestamps += frames.map { round * 1000 + $0.timestampInMilliseconds } }
        var accepted: [Int] = []
        var i = 0
        while i < timestamps.count {
            let frame = frames[i % frames.count]
            #expect(try landmarker.detectAsync(image: frame.image, timestampInMilliseconds: timestamps[i]))
            accepted.append(timestamps[i])
            gate.waitUntilHeld()
            if i + 1 < timestamps.count {
                let next = frames[(i + 1) % frames.count]
                #expect(try landmarker.detectAsync(image: next.image, timestampInMilliseconds: timestamps[i + 1]) == false)
            }
            gate.release()
            #expect(recorder.wait(for: 1))
            i += 2
        }
        let s = recorder.snapshot
        #expect(s.timestamps == accepted)
        #expect(s.timestamps == s.timestamps.sorted())
        #expect(!s.overlapped && !s.onMain && s.errors.isEmpty)
        #expect(landmarker.statistics.framesProcessed == accepted.count)
        #expect(landmarker.statistics.droppedFrames == timestamps.count - accepted.count)
    }

    /// The delegate is held weakly: once released, results are simply not delivered.
    @Test func delegateIsHeldWeakly() throws {
        var recorder: HandResultRecorder? = HandResultRecorder()
        weak let weakRecorder = recorder
        let landmarker = try Self.liveLandmarker(recorder!)
        recorder = nil
        #expect(weakRecorder == nil)
        let image = try VisionImage(width: 64, height: 48, format: .rgb8)
        #expect(try landmarker.detectAsync(image: image, timestampInMilliseconds: 1))
        // Let the frame finish; nothing to deliver to, nothing crashes.
        for _ in 0..<12_000 where landmarker.statistics.framesProcessed == 0 { usleep(5000) }  // up to 60 s
        #expect(landmarker.statistics.framesProcessed == 1)
    }

    /// The `AsyncStream` form for structured concurrency, no delegate needed.
    @Test func asyncStreamDeliversResults() async throws {
        var options = HandLandmarkerOptions()
        options.modelVariant = .lite
        options.numHands = 2
        let (landmarker, results) = try HandLandmarker.liveStream(options: options)
        #expect(landmarker.options.runningMode == .liveStream)
        var iterator = results.makeAsyncIterator()
        let frames = try HandVideoTests.frames().prefix(3)
        for frame in frames {
            #expect(try landmarker.detectAsync(image: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds))
            let output = try #require(await iterator.next())
            #expect(output.timestampInMilliseconds == frame.timestampInMilliseconds)
            let result = try output.result.get()
            #expect(result.landmarks.count == 2 && result.trackingIDs.count == 2)
        }
        #expect(landmarker.statistics.palmDetectionRuns == 1)
    }

    /// `close()`: frames accepted before it are still delivered, then the stream finishes (a
    /// `for await` loop ends); later calls are a typed error, in every running mode.
    @Test func closeDeliversAcceptedFramesThenFinishesTheStream() async throws {
        var options = HandLandmarkerOptions()
        options.modelVariant = .lite
        let (landmarker, results) = try HandLandmarker.liveStream(options: options)
        let frames = try HandVideoTests.frames().prefix(2)
        let first = try #require(frames.first)
        #expect(try landmarker.detectAsync(image: first.image, timestampInMilliseconds: first.timestampInMilliseconds))
        landmarker.close()
        landmarker.close()  // a second close does nothing
        #expect(throws: HandLandmarkerError.closed(method: "detectAsync(image:timestampInMilliseconds:)")) {
            try landmarker.detectAsync(image: first.image, timestampInMilliseconds: first.timestampInMilliseconds + 100)
        }
        var delivered: [Int] = []
        for await output in results { delivered.append(output.timestampInMilliseconds) }
        #expect(delivered == [first.timestampInMilliseconds])

        let image = try HandTestData.landmarker(.lite, numHands: 1)
        image.close()
        let error = #expect(throws: HandLandmarkerError.self) { try image.detect(image: first.image) }
        #expect(error == .closed(method: "detect(image:)"))
        // LocalizedError: the message, not Foundation's "The operation could not be completed".
        #expect(error?.localizedDescription == "detect(image:) called after close(); create a new one")
    }
}
