import Foundation
import Testing
@testable import BlazeEngine

/// The persistent worker pool: every task exactly once, any thread and task count, repeated
/// dispatch, parking and waking, teardown.
@Suite struct WorkerPoolTests {
    /// Counts how often each task ran (one counter per task, written only by that task).
    final class CountingJob: ParallelJob {
        let counts: UnsafeMutablePointer<Int>
        let capacity: Int
        let threadIDs: UnsafeMutablePointer<pthread_t>
        init(capacity: Int) {
            self.capacity = capacity
            counts = .allocate(capacity: capacity)
            counts.initialize(repeating: 0, count: capacity)
            threadIDs = .allocate(capacity: capacity)
            threadIDs.initialize(repeating: pthread_t(), count: capacity)
        }
        deinit { counts.deallocate(); threadIDs.deallocate() }
        func reset() { counts.update(repeating: 0, count: capacity) }
        func runTask(_ index: Int) {
            counts[index] += 1
            threadIDs[index] = pthread_self()
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func everyTaskRunsExactlyOnce(threads: Int) {
        let pool = WorkerPool(threadCount: threads)
        #expect(pool.threadCount == threads)
        let job = CountingJob(capacity: 1000)
        for taskCount in [0, 1, 2, 3, 4, 7, 64, 1000] {
            job.reset()
            pool.run(job, taskCount: taskCount)
            #expect((0..<taskCount).allSatisfy { job.counts[$0] == 1 }, "threads \(threads), tasks \(taskCount)")
            #expect((taskCount..<1000).allSatisfy { job.counts[$0] == 0 })
        }
    }

    @Test func manyDispatchesInARow() {
        let pool = WorkerPool(threadCount: 3)
        let job = CountingJob(capacity: 5)
        for _ in 0..<20_000 { pool.run(job, taskCount: 5) }
        #expect((0..<5).allSatisfy { job.counts[$0] == 20_000 })
    }

    @Test func workersRunTasks() {
        // With long enough tasks, more than one thread takes part (the caller owns only its share).
        final class SlowJob: ParallelJob {
            let threads = Locked<Set<UInt>>([])
            func runTask(_ index: Int) {
                usleep(2000)
                let me = UInt(bitPattern: Int(pthread_self()))
                threads.withLock { _ = $0.insert(me) }
            }
        }
        let pool = WorkerPool(threadCount: 2)
        let job = SlowJob()
        pool.run(job, taskCount: 8)
        #expect(job.threads.withLock { $0.count } == 2)
    }

    @Test func wakesParkedWorkers() {
        let pool = WorkerPool(threadCount: 2)
        let job = CountingJob(capacity: 2)
        pool.run(job, taskCount: 2)
        usleep(50_000)  // long enough for the worker to stop spinning and park
        pool.run(job, taskCount: 2)
        usleep(50_000)
        pool.run(job, taskCount: 2)
        #expect(job.counts[0] == 3 && job.counts[1] == 3)
    }

    @Test func poolsComeAndGo() {
        let job = CountingJob(capacity: 4)
        for i in 0..<50 {
            let pool = WorkerPool(threadCount: 1 + i % 4)
            pool.run(job, taskCount: 4)
        }
        #expect((0..<4).allSatisfy { job.counts[$0] == 50 })
    }

    @Test func partsCoverTheRange() {
        for count in [0, 1, 5, 16, 97] {
            for parts in 1...6 {
                var next = 0
                for i in 0..<parts {
                    let r = WorkerPool.part(i, of: parts, count: count)
                    #expect(r.lowerBound == next)
                    #expect(r.count == count / parts || r.count == count / parts + 1)
                    next = r.upperBound
                }
                #expect(next == count)
            }
        }
    }
}
