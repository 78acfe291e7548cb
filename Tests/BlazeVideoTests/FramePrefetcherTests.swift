import BlazeEngine
import BlazeImageIO
import BlazeKit
import BlazeVideo
import Foundation
import Testing

/// `FramePrefetcher` over a synthetic source whose frames are numbered (expected values follow
/// from the numbering).
@Suite("FramePrefetcher")
struct FramePrefetcherTests {
    /// Frames 0..<count, each `delay` µs apart, then `failure` if given; `made` is signalled for
    /// every frame handed out.
    final class Counter: FrameSource {
        let count: Int, delay: UInt32, failure: BlazeError?
        let made: DispatchSemaphore?
        var next = 0
        init(count: Int, delay: UInt32 = 0, failure: BlazeError? = nil, made: DispatchSemaphore? = nil) {
            self.count = count; self.delay = delay; self.failure = failure; self.made = made
        }
        func nextFrame() throws -> VideoFrame? {
            guard next < count else {
                if let failure { throw failure }
                return nil
            }
            if delay > 0 { usleep(delay) }
            defer {
                next += 1
                made?.signal()
            }
            return VideoFrame(image: try VisionImage(width: 2, height: 2, format: .gray8), index: next, timestampInMilliseconds: next * 33)
        }
    }

    @Test func orderedKeepsEveryFrameThenTheSourcesError() throws {
        let prefetcher = FramePrefetcher(Counter(count: 50, failure: BlazeError(.invalidInput, "damaged")), policy: .ordered(depth: 3))
        var indices: [Int] = []
        let error = #expect(throws: BlazeError.self) {
            while let frame = try prefetcher.nextFrame() { indices.append(frame.index) }
        }
        #expect(indices == Array(0..<50))
        #expect(error?.message == "damaged")
        #expect(try prefetcher.nextFrame() == nil)
        #expect(prefetcher.droppedFrames == 0)
    }

    /// "Busy" is a fact, not a timing guess: after its first frame the consumer waits until the
    /// source has handed out 12 frames. The reader records frame k before it asks for k + 1, so
    /// by then frames up to 10 were offered while one frame slot was free: some must be dropped.
    @Test func latestDropsWhatABusyConsumerMisses() throws {
        let made = DispatchSemaphore(value: 0)
        let prefetcher = FramePrefetcher(Counter(count: 200, made: made), policy: .latest)
        var indices: [Int] = []
        while let frame = try prefetcher.nextFrame() {
            indices.append(frame.index)
            if indices.count == 1 {
                for _ in 0..<12 { made.wait() }
            }
        }
        #expect(indices == indices.sorted() && Set(indices).count == indices.count, "in order, none twice")
        #expect(indices.count < 200 && prefetcher.droppedFrames > 0)
        #expect(indices.count + prefetcher.droppedFrames == 200, "every frame taken or counted as dropped")
    }

    @Test func stopEndsTheReaderEarly() throws {
        let prefetcher = FramePrefetcher(Counter(count: 1_000_000, delay: 100), policy: .latest)
        _ = try prefetcher.nextFrame()
        prefetcher.stop()
        var rest = 0
        while try prefetcher.nextFrame() != nil { rest += 1 }
        #expect(rest <= 1)
    }
}
