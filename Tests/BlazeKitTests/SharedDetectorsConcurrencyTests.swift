import BlazeEngine
import Dispatch
import Foundation
import Testing
@testable import BlazeKit

/// Eight threads (real threads, released together, more than the cores) sharing one
/// `FaceDetector` and one `HandLandmarker` in image mode: every call gives exactly the result of
/// the same call made serially. `make sanitize` runs this under ThreadSanitizer.
@Suite("Shared detectors on 8 threads")
struct SharedDetectorsConcurrencyTests {
    static let facePhotos = ["three_people.jpg", "two_children.jpg", "grace_hopper.jpg", "woman_sitting_street.jpg"]
    static let handPhotos = ["woman_sitting_street.jpg", "two_hands_open_palms.jpg", "hagrid_call_17d804b5.jpg", "business_person.png"]
    static let threads = 8, callsPerThread = 4

    @Test func eightThreadsShareOneFaceDetectorAndOneHandLandmarker() throws {
        let faces = try FaceDetector.faceDetector(options: FaceTestData.allOptions(.fast))
        let hands = try HandTestData.landmarker(.full, numHands: 2)
        let faceImages = try Self.facePhotos.map(FaceTestData.image)
        let handImages = try Self.handPhotos.map(HandTestData.photo)
        let expectedFaces = try faceImages.map { try faces.results(in: $0) }
        let expectedHands = try handImages.map { try hands.detect(image: $0) }
        #expect(expectedFaces.contains { !$0.isEmpty } && expectedHands.contains { !$0.landmarks.isEmpty })

        let failures = Locked<[String]>([])
        let calls = Locked(0)
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for thread in 0..<Self.threads {
            done.enter()
            Thread {
                start.wait()
                for step in 0..<Self.callsPerThread {
                    let i = (thread + step) % 4
                    do {
                        // Even threads start with faces, odd ones with hands: both are busy at once.
                        if (thread + step) % 2 == 0 {
                            if try faces.results(in: faceImages[i]) != expectedFaces[i] {
                                failures.withLock { $0.append("thread \(thread) step \(step): faces of \(Self.facePhotos[i]) differ") }
                            }
                        } else if try hands.detect(image: handImages[i]) != expectedHands[i] {
                            failures.withLock { $0.append("thread \(thread) step \(step): hands of \(Self.handPhotos[i]) differ") }
                        }
                        calls.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("thread \(thread) step \(step): \(error)") }
                    }
                }
                done.leave()
            }.start()
        }
        for _ in 0..<Self.threads { start.signal() }
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(calls.withLock { $0 } == Self.threads * Self.callsPerThread)
        #expect(hands.statistics.framesProcessed == handImages.count + Self.threads * Self.callsPerThread / 2)
    }
}
