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
    /// Frames 0..<count, each `delay` µs apart, then `failure` if given.
    final class Counter: FrameSource {
        let count: Int, delay: UInt32, failure: BlazeError?
        var next = 0
        init(count: Int, delay: UInt32 = 0, failure: BlazeError? = nil) { self.count = count; self.delay = delay; self.failure = failure }
        func nextFrame() throws -> VideoFrame? {
            guard next < count else {
                if let failure { throw failure }
                return nil
            }
            if delay > 0 { usleep(delay) }
            defer { next += 1 }
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

    @Test func latestDropsWhatABusyConsumerMisses() throws {
        // The source makes a frame every 1 ms; the consumer takes 5 ms per frame.
        let prefetcher = FramePrefetcher(Counter(count: 200, delay: 1000), policy: .latest)
        var indices: [Int] = []
        while let frame = try prefetcher.nextFrame() {
            indices.append(frame.index)
            usleep(5000)
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
