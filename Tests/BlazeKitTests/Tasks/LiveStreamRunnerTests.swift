import BlazeEngineCore
import BlazeTestSupport
import Dispatch
import Testing

@testable import BlazeKit

/// The live-stream machinery the three Tasks-style APIs share, tested on its own with `Int`
/// outputs. "Busy" is made a fact by blocking the processing queue in the test hook (no sleeps).
@Suite struct LiveStreamRunnerTests {
    /// Outputs delivered to the "delegate", in the order they arrived.
    final class Delivered: @unchecked Sendable {
        private let values = Locked<[Int]>([])
        private let arrived = DispatchSemaphore(value: 0)
        func append(_ value: Int) {
            values.withLock { $0.append(value) }
            arrived.signal()
        }
        func wait(for count: Int) -> Bool {
            (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + 60) == .success }
        }
        var all: [Int] { values.withLock { $0 } }
    }

    @Test func framesOfferedWhileBusyAreDroppedAndCounted() throws {
        let runner = LiveStreamRunner<Int>(label: "test", continuation: nil)
        let delivered = Delivered()
        let gate = WorkerGate(holdingAt: 1)
        runner.beforeFrame = gate.hook
        func offer(_ t: Int) throws -> Bool {
            try runner.submit(method: "m", timestamp: t, accept: {}, process: { t * 10 }, deliver: { delivered.append($0) })
        }
        #expect(try offer(1))
        gate.waitUntilHeld()
        #expect(try offer(2) == false)
        #expect(try offer(3) == false)
        gate.release()
        #expect(delivered.wait(for: 1))
        #expect(try offer(4))
        #expect(delivered.wait(for: 1))
        #expect(delivered.all == [10, 40])
        #expect(runner.droppedFrames == 2)
    }

    /// A frame its `accept` check rejects is neither processed nor counted as dropped.
    @Test func rejectedFramesAreNotProcessed() throws {
        let runner = LiveStreamRunner<Int>(label: "test", continuation: nil)
        let delivered = Delivered()
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 5, received: 5)) {
            try runner.submit(
                method: "m", timestamp: 5, accept: { throw TasksError.nonIncreasingTimestamp(previous: 5, received: 5) },
                process: { 1 }, deliver: { delivered.append($0) })
        }
        #expect(runner.droppedFrames == 0)
        #expect(try runner.submit(method: "m", timestamp: 6, accept: {}, process: { 2 }, deliver: { delivered.append($0) }))
        #expect(delivered.wait(for: 1))
        #expect(delivered.all == [2])
    }

    /// A consumer that is slow to take a result does not make the next frame count as busy: the
    /// runner is free once the frame is processed, and deliveries stay in order.
    @Test func slowDeliveryDoesNotDropTheNextFrame() throws {
        let runner = LiveStreamRunner<Int>(label: "test", continuation: nil)
        let delivered = Delivered()
        let inDelivery = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        #expect(
            try runner.submit(
                method: "m", timestamp: 1, accept: {}, process: { 1 },
                deliver: {
                    inDelivery.signal()
                    release.wait()
                    delivered.append($0)
                }))
        inDelivery.wait()
        #expect(try runner.submit(method: "m", timestamp: 2, accept: {}, process: { 2 }, deliver: { delivered.append($0) }))
        release.signal()
        #expect(delivered.wait(for: 2))
        #expect(delivered.all == [1, 2])
        #expect(runner.droppedFrames == 0)
    }

    /// `close()`: the frame accepted before it is still delivered, to the delegate and the
    /// stream; then the stream ends; later frames throw `.closed` with the method's name.
    @Test func closeDeliversAcceptedFramesThenEndsTheStream() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let runner = LiveStreamRunner<Int>(label: "test", continuation: continuation)
        let delivered = Delivered()
        let gate = WorkerGate()
        runner.beforeFrame = gate.hook
        #expect(try runner.submit(method: "m", timestamp: 1, accept: {}, process: { 7 }, deliver: { delivered.append($0) }))
        gate.waitUntilHeld()
        runner.close()
        #expect(runner.isClosed)
        #expect(throws: TasksError.closed(method: "detectAsync")) {
            try runner.submit(method: "detectAsync", timestamp: 2, accept: {}, process: { 8 }, deliver: { delivered.append($0) })
        }
        #expect(throws: TasksError.closed(method: "detect(image:)")) { try runner.checkOpen(method: "detect(image:)") }
        gate.release()
        var streamed: [Int] = []
        for await value in stream { streamed.append(value) }
        #expect(streamed == [7])
        #expect(delivered.all == [7])
    }
}
