import BlazeTestSupport
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
        // Two tasks that wait for each other finish only if two threads run them at once (the
        // caller owns one, the worker the other).
        final class RendezvousJob: ParallelJob {
            let pair = Rendezvous(parties: 2)
            let threads = Locked<Set<UInt>>([])
            func runTask(_ index: Int) {
                threads.withLock { _ = $0.insert(UInt(bitPattern: Int(pthread_self()))) }
                pair.arriveAndWait()
            }
        }
        let pool = WorkerPool(threadCount: 2)
        let job = RendezvousJob()
        pool.run(job, taskCount: 2)
        #expect(job.pair.allMet, "the two tasks never ran at the same time")
        #expect(job.threads.withLock { $0.count } == 2)
    }

    @Test func wakesParkedWorkers() {
        let pool = WorkerPool(threadCount: 2)
        let job = CountingJob(capacity: 2)
        for round in 1...3 {
            pool.run(job, taskCount: 2)
            // Wait for the worker to park (its state, not a sleep), so the next run must wake it.
            let deadline = DispatchTime.now().uptimeNanoseconds + 60_000_000_000
            while pool.parkedWorkers < 1 && DispatchTime.now().uptimeNanoseconds < deadline { usleep(1000) }
            #expect(pool.parkedWorkers == 1, "round \(round): the worker never parked")
        }
        pool.run(job, taskCount: 2)
        #expect(job.counts[0] == 4 && job.counts[1] == 4)
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
