import Dispatch

/// Holds a live-stream worker at the start of a frame until the test lets it go, so "the worker
/// is busy" is a fact the test sets up, not a timing guess: no sleeps.
public final class WorkerGate: Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let timestamp: Int?

    /// Holds the worker at the frame with `timestamp`, or at every frame when it is nil.
    public init(holdingAt timestamp: Int? = nil) { self.timestamp = timestamp }

    /// What the task runs before each frame (its `beforeLiveStreamFrame` test hook).
    public var hook: @Sendable (Int) -> Void {
        { [self] t in
            guard timestamp == nil || t == timestamp else { return }
            held.signal()
            gate.wait()
        }
    }

    /// Returns once the worker is held.
    public func waitUntilHeld() { held.wait() }

    /// Lets one held frame go on.
    public func release() { gate.signal() }
}
