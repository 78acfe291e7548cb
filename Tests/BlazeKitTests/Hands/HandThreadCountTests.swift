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

    /// One call's nets run on one set of threads: idle pools beside the running one would spin on
    /// its cores. The side-by-side sessions are single-threaded and run on those same threads.
    @Test(arguments: [(1, 2, 0), (3, 2, 2), (3, 4, 3), (2, 1, 0)])
    func oneCallsNetsShareOneSetOfThreads(threads: Int, numHands: Int, sideBySide: Int) throws {
        var options = HandLandmarkerOptions()
        options.modelVariant = .lite
        let sessions = HandSessions(models: try HandModels.load(options), threads: threads, numHands: numHands)
        #expect(sessions.workers.threadCount == threads)
        #expect(sessions.palm.workers === sessions.workers && sessions.landmark.workers === sessions.workers)
        #expect(sessions.handLandmarks.count == sideBySide)
        #expect(sessions.handLandmarks.allSatisfy { $0.threads == 1 })
    }
}
