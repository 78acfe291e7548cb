import BlazeImageIO
import Foundation

/// Reads frames from a `FrameSource` on a thread of its own, ahead of the caller, so decoding
/// overlaps the caller's work on the previous frames.
///
/// - `.ordered` (files): every frame in order; the reader stays at most `depth` frames ahead.
/// - `.latest` (cameras, live streams): the reader never waits; when the caller is busy, an
///   older unread frame is replaced by the newer one and counted in `droppedFrames`. Frames keep
///   their source index, so the gaps show.
///
/// An error of the source is thrown by `nextFrame()` after the frames read before it. The source
/// must not be used by anyone else once it is handed over.
public final class FramePrefetcher: FrameSource {
    public enum Policy: Sendable { case ordered(depth: Int), latest }

    private let state: PrefetchState

    /// Starts reading `source` on a new thread at once.
    public init(_ source: FrameSource, policy: Policy = .ordered(depth: 2)) {
        let state = PrefetchState(policy: policy)
        self.state = state
        let box = SourceBox(source)
        let thread = Thread { state.read(box.source) }
        thread.name = "blaze.frames"
        thread.start()
    }

    /// Lets the reading thread end after its current frame (and release the source).
    deinit { state.stop(waiting: false) }

    /// Frames the `.latest` policy replaced before they were taken.
    public var droppedFrames: Int { state.droppedFrames }

    public func nextFrame() throws -> VideoFrame? { try state.nextFrame() }

    /// Stops the reading thread after its current frame and waits for it to end (a camera is
    /// then released); `nextFrame()` returns what was read before, then nil.
    public func stop() { state.stop(waiting: true) }
}

/// The state shared by a `FramePrefetcher` and its reading thread.
private final class PrefetchState: @unchecked Sendable {
    // @unchecked: every stored property but `policy` is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var queue: [VideoFrame] = []
    private var failure: (any Error)?
    private var stopped = false
    private var dropped = 0
    private var readerRunning = true
    private let policy: FramePrefetcher.Policy

    init(policy: FramePrefetcher.Policy) { self.policy = policy }

    var droppedFrames: Int {
        condition.lock(); defer { condition.unlock() }
        return dropped
    }

    func nextFrame() throws -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && readerRunning { condition.wait() }
        if !queue.isEmpty {
            let frame = queue.removeFirst()
            condition.broadcast()
            return frame
        }
        if let failure {
            self.failure = nil
            throw failure
        }
        return nil
    }

    func stop(waiting: Bool) {
        condition.lock()
        stopped = true
        condition.broadcast()
        while waiting && readerRunning { condition.wait() }
        condition.unlock()
    }

    func read(_ source: FrameSource) {
        defer {
            condition.lock()
            readerRunning = false
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            if case .ordered(let depth) = policy {
                while queue.count >= max(1, depth) && !stopped { condition.wait() }
            }
            let stop = stopped
            condition.unlock()
            if stop { return }
            let frame: VideoFrame?
            do { frame = try source.nextFrame() } catch {
                condition.lock(); failure = error; condition.unlock()
                return
            }
            guard let frame else { return }
            condition.lock()
            if case .latest = policy, !queue.isEmpty {
                dropped += queue.count
                queue.removeAll()
            }
            queue.append(frame)
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Hands a non-Sendable source to the one thread that uses it from then on.
private final class SourceBox: @unchecked Sendable {
    let source: FrameSource
    init(_ source: FrameSource) { self.source = source }
}
