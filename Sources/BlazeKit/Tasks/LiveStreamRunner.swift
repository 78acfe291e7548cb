import Dispatch
import Foundation

/// Live stream and `close()` for the Tasks-style APIs (through `TaskCore`).
///
/// - A frame offered while another is being processed is dropped (and counted), as MediaPipe's
///   live stream does.
/// - Accepted frames are processed one at a time on a private serial queue; their results are
///   delivered on a second serial queue, in the order the frames were accepted, so a slow
///   consumer does not make the next frame count as busy.
/// - After `close()` every call throws `TasksError.closed`; the frames accepted before it are
///   still delivered, then the `AsyncStream` (if any) finishes.
final class LiveStreamRunner<Output: Sendable>: @unchecked Sendable {
    // @unchecked: `busy`, `closed` and `dropped` are only touched under `lock`; `beforeFrame` is
    // a test hook set before the first frame.

    private let lock = NSLock()
    private var busy = false
    private var closed = false
    private var dropped = 0
    private let processingQueue: DispatchQueue
    private let callbackQueue: DispatchQueue
    private let continuation: AsyncStream<Output>.Continuation?
    /// Test hook: runs on the processing queue before an accepted frame is processed, so a test
    /// can hold the runner busy without guessing how long a frame takes.
    var beforeFrame: (@Sendable (_ timestamp: Int) -> Void)?

    /// - Parameters:
    ///   - label: the task's name, for the queues' labels (as seen in a debugger).
    ///   - continuation: the `AsyncStream` every delivered output is yielded to, if any; it is
    ///     finished by `close()` or when the runner is released.
    init(label: String, continuation: AsyncStream<Output>.Continuation?) {
        processingQueue = DispatchQueue(label: "BlazeKit.\(label).processing")
        callbackQueue = DispatchQueue(label: "BlazeKit.\(label).callbacks")
        self.continuation = continuation
    }

    deinit {
        continuation?.finish()
    }

    /// Whether `close()` was called.
    var isClosed: Bool { lock.withLock { closed } }

    /// Frames dropped because another one was being processed.
    var droppedFrames: Int { lock.withLock { dropped } }

    /// Throws `TasksError.closed(method:)` after `close()`.
    func checkOpen(method: String) throws(TasksError) {
        if isClosed { throw TasksError.closed(method: method) }
    }

    /// Offers one live-stream frame.
    ///
    /// - Parameters:
    ///   - accept: checks and records the frame's timestamp; it runs under the runner's lock, so
    ///     frames from several threads are checked in the order they are accepted. A frame it
    ///     rejects is neither processed nor counted as dropped.
    ///   - process: computes the frame's output on the processing queue.
    ///   - deliver: hands the output to the task's delegate, on the callback queue, after it has
    ///     been yielded to the `AsyncStream`.
    /// - Returns: true if the frame was accepted, false if it was dropped because the runner was busy.
    func submit(
        method: String, timestamp: Int, accept: () throws -> Void,
        process: @escaping @Sendable () -> Output, deliver: @escaping @Sendable (Output) -> Void
    ) throws -> Bool {
        try lock.withLock {
            if closed { throw TasksError.closed(method: method) }
            try accept()
            if busy {
                dropped += 1
                return false
            }
            busy = true
            // Queued under `lock`, so a concurrent `close()` queues the end of the stream after it.
            processingQueue.async { [self] in
                beforeFrame?(timestamp)
                let output = process()
                lock.withLock { busy = false }
                callbackQueue.async { [continuation] in
                    continuation?.yield(output)
                    deliver(output)
                }
            }
            return true
        }
    }

    /// Refuses later calls; the frames accepted before are still delivered, then the stream
    /// finishes. Calling it again does nothing.
    func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            guard let continuation else { return }
            processingQueue.async { [callbackQueue] in
                callbackQueue.async { continuation.finish() }
            }
        }
    }
}
