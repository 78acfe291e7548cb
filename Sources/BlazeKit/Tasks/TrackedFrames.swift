import Foundation

/// What a tracking task keeps from frame to frame, beside `TaskCore`: its session sets, the
/// tracker carried from one video or live-stream frame to the next, and its work counters.
final class TrackedFrames<Sessions, Tracker, Work: FrameWorkCounting>: @unchecked Sendable {
    // @unchecked: `tracker` and `counters` are only touched under `lock`; a borrowed session set
    // belongs to one call; the pool guards itself.
    private let pool: SessionPool<Sessions>
    private let lock = NSLock()
    private var tracker: Tracker
    private var counters: Work.Statistics

    /// - Parameters:
    ///   - tracker: the tracking state before the first tracked frame (image mode never uses it).
    ///   - statistics: the counters before the first frame.
    init(tracker: Tracker, statistics: Work.Statistics, makeSessions: @escaping @Sendable () -> Sessions) {
        pool = SessionPool(make: makeSessions)
        self.tracker = tracker
        counters = statistics
    }

    /// Session sets made so far (one per call that ran at the same time as others).
    var sessionSetsCreated: Int { pool.created }

    /// The work counted so far.
    var statistics: Work.Statistics { lock.withLock { counters } }

    /// One frame on a borrowed session set. A `tracked` frame (video, live stream: `TaskCore` runs
    /// one at a time) starts from the tracker the frame before left; an image-mode frame has none.
    /// A frame that throws leaves the tracker and the counters as they were.
    func process<R>(tracked: Bool, _ body: (inout Tracker?, Sessions, inout Work) throws -> R) rethrows -> R {
        var state = tracked ? lock.withLock { tracker } : nil
        var work = Work()
        let result = try pool.withSessions { try body(&state, $0, &work) }
        lock.withLock {
            if tracked, let state { tracker = state }
            work.count(into: &counters)
        }
        return result
    }
}

/// The work one frame did (which nets ran), added to a task's statistics once the frame is done.
protocol FrameWorkCounting {
    associatedtype Statistics
    init()
    func count(into statistics: inout Statistics)
}
