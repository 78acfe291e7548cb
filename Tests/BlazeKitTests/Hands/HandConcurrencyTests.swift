import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// Landmarkers are Sendable and thread-safe: two landmarkers on two threads never interfere, and
/// one landmarker used from several threads gives the same results as used from one.
@Suite("Hand concurrency")
struct HandConcurrencyTests {
    static let photos = ["woman_sitting_street.jpg", "two_hands_open_palms.jpg", "hagrid_call_17d804b5.jpg", "business_person.png"]

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: [Float]] = [:]
        private var failures: [String] = []
        func put(_ key: String, _ value: [Float]) { lock.withLock { values[key] = value } }
        func fail(_ message: String) { lock.withLock { failures.append(message) } }
        var snapshot: ([String: [Float]], [String]) { lock.withLock { (values, failures) } }
    }

    /// Runs `body(i)` on `count` threads at once and waits.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            Thread {
                body(i)
                group.leave()
            }.start()
        }
        group.wait()
    }

    @Test func twoLandmarkersOnTwoThreads() throws {
        let images = try Self.photos.map(HandTestData.photo)
        let full = try HandTestData.landmarker(.full, numHands: 2)
        let lite = try HandTestData.landmarker(.lite, numHands: 2)
        let expectedFull = try images.map { try full.detect(image: $0).handTestFlatLandmarks }
        let expectedLite = try images.map { try lite.detect(image: $0).handTestFlatLandmarks }
        let box = Box()
        Self.onThreads(2) { thread in
            let landmarker = thread == 0 ? full : lite
            for round in 0..<3 {
                for (i, image) in images.enumerated() {
                    do { box.put("\(thread)/\(round)/\(i)", try landmarker.detect(image: image).handTestFlatLandmarks) } catch { box.fail("\(error)") }
                }
            }
        }
        let (values, failures) = box.snapshot
        #expect(failures.isEmpty)
        for thread in 0..<2 {
            for round in 0..<3 {
                for i in images.indices {
                    #expect(values["\(thread)/\(round)/\(i)"] == (thread == 0 ? expectedFull[i] : expectedLite[i]), "thread \(thread) photo \(i)")
                }
            }
        }
    }

    @Test func oneLandmarkerFromSeveralThreads() throws {
        let images = try Self.photos.map(HandTestData.photo)
        let landmarker = try HandTestData.landmarker(.full, numHands: 2)
        let expected = try images.map { try landmarker.detect(image: $0).handTestFlatLandmarks }
        let box = Box()
        Self.onThreads(4) { thread in
            for step in 0..<4 {
                let i = (thread + step) % images.count
                do { box.put("\(thread)/\(i)", try landmarker.detect(image: images[i]).handTestFlatLandmarks) } catch { box.fail("\(error)") }
            }
        }
        let (values, failures) = box.snapshot
        #expect(failures.isEmpty)
        #expect(values.count == 16)
        for (key, value) in values {
            let i = Int(key.split(separator: "/")[1])!
            #expect(value == expected[i], "\(key)")
        }
        #expect(landmarker.statistics.framesProcessed == images.count + 16)
    }

    /// Video calls from several threads are serialized: each is either processed or rejected
    /// for a timestamp that another thread already passed, never both, never a crash.
    @Test func videoCallsFromSeveralThreads() throws {
        let frames = try HandVideoTests.frames()
        let landmarker = try HandTestData.landmarker(.lite, numHands: 2) { $0.runningMode = .video }
        let box = Box()
        let clock = Box()
        let counter = NSLock()
        nonisolated(unsafe) var timestamp = 0
        Self.onThreads(3) { thread in
            for frame in frames.prefix(4) {
                let t = counter.withLock {
                    timestamp += 10
                    return timestamp
                }
                do {
                    _ = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: t)
                    clock.put("\(t)", [])
                } catch HandLandmarkerError.nonIncreasingTimestamp(let previous, let received) where previous > received {
                    box.put("\(t)", [])
                } catch {
                    box.fail("\(error)")
                }
            }
        }
        let (rejected, failures) = box.snapshot
        #expect(failures.isEmpty)
        #expect(clock.snapshot.0.count + rejected.count == 12)
        #expect(landmarker.statistics.framesProcessed == clock.snapshot.0.count)
    }
}
