/// How the row-split steps cut their work into tasks for a `WorkerPool`.
///
/// A few tasks per thread rather than one: each thread owns a contiguous run of tasks (so its data
/// stays in its core's cache from op to op), and when a thread is descheduled on a busy machine the
/// others steal its remaining tasks, leaving only the one it is running behind. Tiny ops are not
/// split at all (a dispatch costs about a microsecond). These splits never change results: every
/// output element is computed by the same arithmetic whichever task computes it.
enum Parallelism {
    static let tasksPerThread = 4

    /// Tasks for `units` independent units (rows, elements) of `work` total cost, each task at least
    /// `minWork`; 1 when `threads == 1`.
    static func tasks(units: Int, work: Int, minWork: Int, threads: Int) -> Int {
        if threads <= 1 || units <= 1 { return 1 }
        return max(1, min(units, threads * tasksPerThread, work / max(minWork, 1)))
    }

    /// Work below which an elementwise pass is not split (elements).
    static let minElementwiseWork = 16384
}
