import Foundation
import Synchronization

/// Work that a `WorkerPool` splits into numbered tasks. A class, so handing it to the workers
/// allocates nothing.
public protocol ParallelJob: AnyObject {
    /// Runs task `index` of the current `WorkerPool.run(_:taskCount:)`. Called concurrently for
    /// different indices; tasks must write disjoint memory.
    func runTask(_ index: Int)
}

/// A fixed set of persistent worker threads for fork–join loops: `run(_:taskCount:)` hands tasks
/// `0..<taskCount` of a `ParallelJob` to the workers and the calling thread, and returns when all
/// are done.
///
/// Dispatch is a generation counter in an atomic: idle workers spin on it for a short while
/// (≈ 1 µs from publish to pick-up), then yield, then park on a condition variable, so an idle
/// pool costs no CPU. Thread `i` (the caller is 0) owns the contiguous tasks
/// `part(i, of: threadCount, count: taskCount)`, so consecutive ops split the same way keep their
/// data in the same core's cache; a thread that runs out of its own tasks steals the others'
/// (each range is claimed through its own atomic counter), so a slow or descheduled thread does not
/// hold the rest up. Nothing is allocated per `run`.
///
/// A pool serves one caller at a time: `run` must not be called concurrently or from inside a task
/// (a precondition catches both). `threadCount` counts the caller, so `WorkerPool(threadCount: 1)`
/// starts no thread and runs every task inline.
public final class WorkerPool: @unchecked Sendable {
    // @unchecked: all cross-thread state lives in `PoolState` (atomics + a job slot published by them).

    /// Threads that execute tasks, the caller included.
    public let threadCount: Int
    private let state: PoolState
    private var threads: [pthread_t] = []

    /// Workers parked on the condition variable (or about to park), so tests can wait for it.
    var parkedWorkers: Int { state.sleepers.load(ordering: .sequentiallyConsistent) }

    /// Starts `threadCount - 1` worker threads (`threadCount` is clamped to 1...256).
    public init(threadCount: Int) {
        self.threadCount = min(max(threadCount, 1), 256)
        state = PoolState(threadCount: self.threadCount)
        for index in 0..<(self.threadCount - 1) {
            let context = Unmanaged.passRetained(WorkerContext(state: state, index: index + 1)).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    let context = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
                    WorkerPool.workerMain(context.state, thread: context.index)
                    return nil
                }, context)
            precondition(rc == 0, "WorkerPool: pthread_create failed (\(rc))")
            threads.append(thread)
        }
    }

    deinit {
        state.shutdown()
        for t in threads { pthread_join(t, nil) }
        state.deallocate()
    }

    /// Runs `job.runTask(t)` for every task `t` in `0..<taskCount`, each exactly once, spread over
    /// the workers and the calling thread; returns when all have finished. Which thread runs which
    /// task is unspecified, so a task must give the same result whichever thread runs it.
    /// Allocates nothing (a job is a class, so publishing it is a reference, not a boxed closure).
    public func run(_ job: some ParallelJob, taskCount: Int) {
        if taskCount <= 0 { return }
        if taskCount == 1 || threadCount == 1 {
            for t in 0..<taskCount { job.runTask(t) }
            return
        }
        precondition(taskCount < 1 << 31, "WorkerPool: too many tasks")
        let s = state
        precondition(
            s.inUse.exchange(true, ordering: .acquiring) == false,
            "WorkerPool.run called concurrently or from inside a task")
        let tag = PoolState.tag(s.generation.load(ordering: .relaxed) &+ 1)
        s.slot.pointee = job
        s.jobInfo.store(tag << 32 | UInt64(taskCount), ordering: .relaxed)
        s.remaining.store(taskCount, ordering: .relaxed)
        for i in 0..<threadCount {
            s.counters[i].next.store(
                tag << 32 | UInt64(WorkerPool.part(i, of: threadCount, count: taskCount).lowerBound),
                ordering: .relaxed)
        }
        s.publish()
        PoolState.work(s, thread: 0, tag: tag)
        s.waitForCompletion()
        s.slot.pointee = nil
        s.inUse.store(false, ordering: .releasing)
    }

    /// Part `index` of `0..<count` split into `parts` contiguous ranges (sizes differ by at most 1):
    /// the engine's one splitter, `WorkRange.part`.
    @inline(__always)
    public static func part(_ index: Int, of parts: Int, count: Int) -> Range<Int> {
        WorkRange.part(index, of: parts, count: count)
    }

    // MARK: - Workers

    private final class WorkerContext {
        let state: PoolState
        let index: Int
        init(state: PoolState, index: Int) { self.state = state; self.index = index }
    }

    private static func workerMain(_ s: PoolState, thread: Int) {
        var seen = 0
        while true {
            seen = s.awaitGeneration(after: seen)
            if s.stopping.load(ordering: .acquiring) { return }
            PoolState.work(s, thread: thread, tag: PoolState.tag(seen))
        }
    }
}

/// Everything the caller and the workers share. Raw-allocated pieces (the job slot, the mutex and
/// condition variable used for parking) are freed by `deallocate()` after the workers are joined.
///
/// Protocol. The caller fills the job slot, `jobInfo` and the per-thread task counters, all tagged
/// with the low 32 bits of the next generation, then publishes the generation. A thread claims a
/// task with a compare-exchange that also checks the tag, so a worker that wakes late (or is still
/// leaving the previous job) can never claim a task of a job it did not see published. The caller
/// waits for `remaining` (tasks not yet finished) to reach 0, not for the workers: a parked or
/// descheduled worker that claimed nothing costs the caller nothing. Each thread subtracts its
/// finished tasks once, after its last one: `remaining` is the one line all threads write, and a
/// subtraction per task tripled a small dispatch's cost (docs/tuning.md, "One completion report").
final class PoolState: @unchecked Sendable {
    /// Next unclaimed task of one thread's range (`tag << 32 | index`), alone on its cache line.
    final class TaskCounter {
        let next = Atomic<UInt64>(0)
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    let threadCount: Int
    /// Bumped (sequentially consistent) to publish a job; workers wait for it to change.
    let generation = Atomic<Int>(0)
    /// `tag << 32 | taskCount` of the current job.
    let jobInfo = Atomic<UInt64>(0)
    /// Tasks of the current job not yet finished (as reported: once per thread, see `work`).
    let remaining = Atomic<Int>(0)
    /// One per thread (the caller is 0).
    let counters: [TaskCounter]
    /// Workers parked (or about to park) on `condition`.
    let sleepers = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    let inUse = Atomic<Bool>(false)
    /// The current job. Written by the caller before publishing; read by a thread only after it
    /// claimed a task of that job (so the caller is still waiting and the slot cannot change).
    let slot: UnsafeMutablePointer<(any ParallelJob)?>
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>

    /// How long a waiting worker busy-polls, then polls with `sched_yield`, before parking.
    static let spinNanoseconds: UInt64 = 300_000
    static let yieldNanoseconds: UInt64 = 2_000_000

    init(threadCount: Int) {
        self.threadCount = threadCount
        counters = (0..<threadCount).map { _ in TaskCounter() }
        slot = .allocate(capacity: 1)
        slot.initialize(to: nil)
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    func deallocate() {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// The 32-bit tag of a generation.
    @inline(__always)
    static func tag(_ generation: Int) -> UInt64 { UInt64(truncatingIfNeeded: generation) & 0xFFFF_FFFF }

    /// Makes the prepared job visible to the workers and wakes parked ones.
    func publish() {
        generation.add(1, ordering: .sequentiallyConsistent)
        // A worker increments `sleepers` before its final check of `generation` (both sequentially
        // consistent), so either it sees the new generation or we see it parked and signal it.
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
    }

    func shutdown() {
        stopping.store(true, ordering: .releasing)
        publish()
    }

    /// Claims the next task of `counter` below `end` if the counter still belongs to job `tag`.
    @inline(__always)
    static func claim(_ counter: TaskCounter, tag: UInt64, end: Int) -> Int? {
        var v = counter.next.load(ordering: .relaxed)
        while true {
            if v >> 32 != tag { return nil }
            let index = Int(truncatingIfNeeded: v & 0xFFFF_FFFF)
            if index >= end { return nil }
            let (done, current) = counter.next.compareExchange(expected: v, desired: v &+ 1, ordering: .relaxed)
            if done { return index }
            v = current
        }
    }

    /// Runs this thread's own tasks of job `tag`, then steals the others' until none is left.
    static func work(_ s: PoolState, thread: Int, tag: UInt64) {
        let info = s.jobInfo.load(ordering: .acquiring)
        guard info >> 32 == tag else { return }
        let count = Int(truncatingIfNeeded: info & 0xFFFF_FFFF), threads = s.threadCount
        var job: (any ParallelJob)?
        var done = 0
        for k in 0..<threads {
            let owner = (thread &+ k) % threads
            let end = WorkerPool.part(owner, of: threads, count: count).upperBound
            let counter = s.counters[owner]
            while let t = claim(counter, tag: tag, end: end) {
                if job == nil { job = s.slot.pointee }
                job!.runTask(t)
                done &+= 1
            }
        }
        if done > 0 { s.remaining.subtract(done, ordering: .releasing) }
    }

    /// Spins, then yields, then parks until `generation` differs from `seen`; returns the new value.
    func awaitGeneration(after seen: Int) -> Int {
        var spins = 0
        var start: UInt64 = 0
        while true {
            let g = generation.load(ordering: .acquiring)
            if g != seen { return g }
            spins &+= 1
            if spins & 63 != 0 { continue }
            let now = DispatchTime.now().uptimeNanoseconds
            if start == 0 { start = now; continue }
            let waited = now &- start
            if waited < Self.spinNanoseconds { continue }
            if waited < Self.spinNanoseconds + Self.yieldNanoseconds { sched_yield(); continue }
            pthread_mutex_lock(mutex)
            sleepers.add(1, ordering: .sequentiallyConsistent)
            while generation.load(ordering: .sequentiallyConsistent) == seen {
                pthread_cond_wait(condition, mutex)
            }
            sleepers.subtract(1, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
            spins = 0
            start = 0
        }
    }

    /// The caller's side of the join: waits until every task of the current job has finished.
    func waitForCompletion() {
        var spins = 0
        while remaining.load(ordering: .acquiring) != 0 {
            spins &+= 1
            if spins > 4096 { sched_yield() }
        }
    }
}
