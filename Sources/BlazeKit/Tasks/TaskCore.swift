import BlazeEngine
import Foundation

/// What the Tasks-style APIs (`HandLandmarker`, `FaceLandmarker`, `TasksFaceDetector`,
/// `GestureRecognizer`) share around their pipelines: the running-mode check, `close()`,
/// strictly increasing timestamps in video and live stream, one such frame at a time (each
/// depends on the one before), and live stream itself (`LiveStreamRunner`).
final class TaskCore<LiveOutput: LiveStreamOutput>: @unchecked Sendable {
    // @unchecked: `lastTimestamp` guards itself and `frameLock` only orders frames.
    let runningMode: RunningMode
    let liveStream: LiveStreamRunner<LiveOutput>
    /// The last timestamp accepted (dropped live-stream frames included).
    private let lastTimestamp = Locked<Int?>(nil)
    /// Held for a whole video or live-stream frame.
    private let frameLock = NSLock()

    /// - Parameters:
    ///   - label: the task's name, for the live-stream queues' labels.
    ///   - continuation: the `AsyncStream` of a task made by `liveStream(_:_:)`, if any.
    init(label: String, runningMode: RunningMode, continuation: AsyncStream<LiveOutput>.Continuation?) {
        self.runningMode = runningMode
        liveStream = LiveStreamRunner(label: label, continuation: continuation)
    }

    /// A live-stream task and the stream of its outputs: `make` builds the task from `options`
    /// (in live-stream mode) around the stream's continuation; if it throws, the stream is
    /// finished and the error passed on.
    static func liveStream<Task, Options: TaskOptions>(
        _ options: Options, _ make: (Options, AsyncStream<LiveOutput>.Continuation?) throws -> Task
    ) throws -> (Task, AsyncStream<LiveOutput>) {
        var options = options
        options.runningMode = .liveStream
        let (stream, continuation) = AsyncStream<LiveOutput>.makeStream()
        do {
            return (try make(options, continuation), stream)
        } catch {
            continuation.finish()
            throw error
        }
    }

    /// Throws `.closed` after `close()`, and `.runningModeMismatch` when `method` belongs to
    /// another running mode than the task's.
    func check(_ expected: RunningMode, method: String) throws {
        try liveStream.checkOpen(method: method)
        guard runningMode == expected else { throw TasksError.runningModeMismatch(method: method, runningMode: runningMode) }
    }

    /// Checks and records a video or live-stream timestamp: each must exceed the last one.
    func accept(_ timestamp: Int) throws {
        try lastTimestamp.withLock { last in
            if let previous = last, timestamp <= previous {
                throw TasksError.nonIncreasingTimestamp(previous: previous, received: timestamp)
            }
            last = timestamp
        }
    }

    /// A video frame: its timestamp accepted, then `body`, one frame at a time.
    func videoFrame<R>(_ timestamp: Int, _ body: () throws -> R) throws -> R {
        try frameLock.withLock {
            try accept(timestamp)
            return try body()
        }
    }

    /// Offers a live-stream frame (`LiveStreamRunner.submit`) after `check(.liveStream, method:)`:
    /// its timestamp is checked when it arrives (dropped frames too); `process` runs one frame at
    /// a time, its errors as `TasksError` (`TasksError.catching`), and `notify` gives the delegate
    /// the result or the error.
    func submit(
        method: String, timestamp: Int, process: @escaping @Sendable () throws -> LiveOutput.Value,
        notify: @escaping @Sendable (LiveOutput.Value?, (any Error)?) -> Void
    ) throws -> Bool {
        try check(.liveStream, method: method)
        return try liveStream.submit(
            method: method, timestamp: timestamp, accept: { try accept(timestamp) },
            process: { [self] in LiveOutput(timestamp: timestamp, outcome: frameLock.withLock { TasksError.catching(process) }) },
            deliver: { output in
                switch output.outcome {
                case .success(let value): notify(value, nil)
                case .failure(let error): notify(nil, error)
                }
            })
    }

    /// Refuses later calls; frames accepted in live stream are still delivered, then the
    /// stream finishes.
    func close() { liveStream.close() }
}

extension TasksError {
    /// `body`'s result, its error as a `TasksError`: one already, or an engine error while
    /// reading the image (`.invalidImage`, the engine's error kept).
    static func catching<R>(_ body: () throws -> R) -> Result<R, TasksError> {
        do {
            return .success(try body())
        } catch let error as TasksError {
            return .failure(error)
        } catch {
            return .failure(.invalidImage("\(error)", underlying: error as? BlazeError))
        }
    }
}

/// What every Tasks options struct has.
protocol TaskOptions {
    var runningMode: RunningMode { get set }
}

extension HandLandmarkerOptions: TaskOptions {}
extension FaceLandmarkerOptions: TaskOptions {}
extension GestureRecognizerOptions: TaskOptions {}
extension TasksFaceDetectorOptions: TaskOptions {}

/// A task with a `TaskCore`, for what tests reach through it.
protocol LiveStreamTask: AnyObject {
    associatedtype LiveOutput: LiveStreamOutput
    var core: TaskCore<LiveOutput> { get }
}

extension LiveStreamTask {
    /// Test hook: runs on the processing queue before a live-stream frame is processed.
    var beforeLiveStreamFrame: (@Sendable (Int) -> Void)? {
        get { core.liveStream.beforeFrame }
        set { core.liveStream.beforeFrame = newValue }
    }
}

extension HandLandmarker: LiveStreamTask {}
extension FaceLandmarker: LiveStreamTask {}
extension TasksFaceDetector: LiveStreamTask {}
