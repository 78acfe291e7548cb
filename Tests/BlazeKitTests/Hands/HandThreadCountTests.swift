import BlazeImageIO
import BlazeTestSupport
import Testing
@testable import BlazeKit

/// Hand results do not depend on the thread count: with several threads and hands the landmark
/// nets run side by side on single-threaded sessions, with one hand one net runs over all threads,
/// and both must give what one thread gives, bit for bit.
@Suite("Hand thread counts")
struct HandThreadCountTests {
    /// Every test photo in image mode, 2 and 4 hands (more hands than side-by-side sessions at 2 and
    /// 3 threads), at 1, 2 and 3 threads.
    @Test(arguments: [2, 4])
    func imageModeIsTheSameAtEveryThreadCount(numHands: Int) throws {
        let landmarkers = try [1, 2, 3].map { threads in try HandTestData.landmarker(numHands: numHands) { $0.numThreads = threads } }
        var multiHand = 0
        for name in try HandTestData.photoNames() {
            let image = try HandTestData.photo(name)
            let results = try landmarkers.map { try $0.detect(image: image) }
            #expect(results[1] == results[0] && results[2] == results[0], "\(name), \(numHands) hands")
            if results[0].landmarks.count > 1 { multiHand += 1 }
        }
        #expect(multiHand >= 3, "at least 3 photos run hands side by side")
    }

    /// The 10-frame two-hand clip in video mode (tracked hands side by side after the first frame).
    @Test func videoModeIsTheSameAtEveryThreadCount() throws {
        let frames = try HandVideoTests.frames()
        let runs = try [1, 2, 3].map { threads in
            let landmarker = try HandTestData.landmarker {
                $0.runningMode = .video; $0.numThreads = threads
            }
            return try frames.map { try landmarker.detect(videoFrame: $0.image, timestampInMilliseconds: $0.timestampInMilliseconds) }
        }
        #expect(runs[0].allSatisfy { $0.landmarks.count == 2 }, "both hands on every frame")
        #expect(runs[1] == runs[0] && runs[2] == runs[0])
    }
}
