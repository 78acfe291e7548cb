import Foundation

/// Runs work over a stream of inputs on several threads and hands the results back **in input
/// order**, with memory bounded however long the stream is: at most `window` inputs are in
/// flight (queued, being processed, or finished and waiting for an earlier one).
///
/// This is what `blaze faces|hands --jobs N` uses for folders and path lists. Each worker takes
/// one input at a time, so the work inside should be single-threaded (create the detector with
/// `FaceDetectorOptions.threadCount = 1` or `HandLandmarkerOptions.numThreads = 1`): on small
/// nets, one image per core is faster than one image spread over all cores.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.threadCount = 1
/// let detector = try FaceDetector.faceDetector(options: options)
/// try ParallelBatch().forEach(paths, transform: { path in
///     try detector.results(in: ImageFile.read(path: path))
/// }, deliver: { path, result in
///     print(path, (try? result.get().count) ?? -1)
/// })
/// ```
public struct ParallelBatch: Sendable {
    /// Worker threads (1 runs everything on the calling thread).
    public let jobs: Int
    /// The most inputs in flight at once (at least `jobs`).
    public let window: Int

    /// Every core this process may use.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Workers for `inputCount` inputs (nil: not known, a stream): `requested`, but never more
    /// than there are inputs. With one worker left, give the detector every core instead
    /// (`numThreads` / `threadCount` unset): one image gains nothing from the batch's threads.
    public static func jobs(forInputs inputCount: Int?, requested: Int = defaultJobs) -> Int {
        guard let inputCount else { return max(1, requested) }
        return max(1, min(requested, inputCount))
    }

    /// `jobs` workers (default: every core) and a reorder window of `window` inputs (default
    /// 4 × jobs). Throws `invalidInput` when `jobs` is below 1 or `window` below `jobs`.
    public init(jobs: Int = ParallelBatch.defaultJobs, window: Int? = nil) throws {
        guard jobs >= 1 else { throw BlazeError(.invalidInput, "jobs must be at least 1, got \(jobs)", context: "ParallelBatch") }
        let window = window ?? 4 * jobs
        guard window >= jobs else {
            throw BlazeError(.invalidInput, "window must be at least jobs (\(jobs)), got \(window)", context: "ParallelBatch")
        }
        self.jobs = jobs
        self.window = window
    }

    /// Pulls inputs from `inputs` on the calling thread, runs `transform` on each in a worker and
    /// calls `deliver` on the calling thread with each input and its result, in input order.
    /// An error thrown by `transform` is that input's `.failure`; the others go on. An error
    /// thrown by `deliver` stops the batch: no new input is started, the workers finish the one
    /// they hold, and the error is rethrown.
    public func forEach<Inputs: Sequence, Output: Sendable>(
        _ inputs: Inputs,
        transform: @escaping @Sendable (Inputs.Element) throws -> Output,
        deliver: (Inputs.Element, Result<Output, any Error>) throws -> Void
    ) throws where Inputs.Element: Sendable {
        guard jobs > 1 else {
            for input in inputs { try deliver(input, Result { try transform(input) }) }
            return
        }
        let queue = WorkQueue<Inputs.Element, Output>(workers: jobs)
        for _ in 0..<jobs {
            let worker = Thread { queue.work(transform) }
            worker.stackSize = 8 << 20
            worker.start()
        }
        defer { queue.finish() }

        var iterator = inputs.makeIterator()
        var nextIndex = 0, deliverIndex = 0, exhausted = false
        while true {
            while !exhausted && nextIndex - deliverIndex < window {
                guard let input = iterator.next() else { exhausted = true; break }
                queue.submit(index: nextIndex, input)
                nextIndex += 1
            }
            guard deliverIndex < nextIndex else { return }
            let done = queue.waitForResult(index: deliverIndex)
            deliverIndex += 1
            try deliver(done.input, done.result)
        }
    }
}

/// The state shared by the caller and the workers of one `ParallelBatch.forEach`.
private final class WorkQueue<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var pending: [(index: Int, input: Input)] = []
    private var pendingHead = 0
    private var finished: [Int: (input: Input, result: Result<Output, any Error>)] = [:]
    private var closed = false
    private var liveWorkers: Int

    /// For `workers` threads, counted as live from the start (`finish()` waits for them all).
    init(workers: Int) { liveWorkers = workers }

    func submit(index: Int, _ input: Input) {
        condition.lock()
        pending.append((index, input))
        condition.broadcast()
        condition.unlock()
    }

    func waitForResult(index: Int) -> (input: Input, result: Result<Output, any Error>) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let done = finished.removeValue(forKey: index) { return done }
            condition.wait()
        }
    }

    /// A worker's loop: take the oldest pending input, transform it, publish the result.
    func work(_ transform: (Input) throws -> Output) {
        while let (index, input) = take() {
            let result = Result { try transform(input) }
            condition.lock()
            finished[index] = (input, result)
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        liveWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> (Int, Input)? {
        condition.lock()
        defer { condition.unlock() }
        while pendingHead == pending.count && !closed { condition.wait() }
        guard pendingHead < pending.count else { return nil }
        let item = pending[pendingHead]
        pendingHead += 1
        if pendingHead > 64 && pendingHead * 2 > pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return (item.index, item.input)
    }

    /// Drops what has not started, lets the workers finish what they hold, and waits for them.
    func finish() {
        condition.lock()
        closed = true
        pending.removeAll()
        pendingHead = 0
        condition.broadcast()
        while liveWorkers > 0 { condition.wait() }
        finished.removeAll()
        condition.unlock()
    }
}
