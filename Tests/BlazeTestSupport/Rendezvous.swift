import Dispatch
import Foundation
import Synchronization

/// A meeting point for `parties` threads: each waits until all have arrived, so a test that passes
/// one proves that many threads ran at the same time — without sleeps or counting whoever took part.
/// A party that waits past `timeout` gives up and the meeting is marked missed (a broken scheduler
/// fails its test instead of hanging it).
public final class Rendezvous: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)
    private let missed = Atomic<Bool>(false)

    public init(parties: Int) { self.parties = parties }

    public func arriveAndWait(timeout seconds: Double = 60) {
        arrived.add(1, ordering: .sequentiallyConsistent)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while arrived.load(ordering: .sequentiallyConsistent) < parties {
            if DispatchTime.now().uptimeNanoseconds > deadline {
                missed.store(true, ordering: .sequentiallyConsistent)
                return
            }
            sched_yield()
        }
    }

    /// True when every party arrived and none gave up waiting.
    public var allMet: Bool { !missed.load(ordering: .sequentiallyConsistent) && arrived.load(ordering: .sequentiallyConsistent) >= parties }
}
