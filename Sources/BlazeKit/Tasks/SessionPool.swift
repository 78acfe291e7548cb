import BlazeEngine

/// Idle session sets of one detector, landmarker or recognizer. A call borrows a set (making a
/// new one when all are busy) and gives it back, so N concurrent calls use N sets and a single
/// caller reuses one. Sets made under a burst of concurrent calls beyond `maxIdle` are dropped
/// when given back.
final class SessionPool<Sessions>: @unchecked Sendable {
    // @unchecked: `idle` is only touched under its lock; a borrowed set belongs to one call.
    private let make: @Sendable () -> Sessions
    private let idle = Locked<[Sessions]>([])
    private let createdCount = Locked(0)
    /// Sets kept for reuse.
    static var maxIdle: Int { 8 }

    init(make: @escaping @Sendable () -> Sessions) {
        self.make = make
    }

    /// Session sets made so far (the most calls that ever ran at once, at least).
    var created: Int { createdCount.withLock { $0 } }

    func withSessions<R>(_ body: (Sessions) throws -> R) rethrows -> R {
        let sessions =
            idle.withLock { $0.popLast() }
            ?? {
                createdCount.withLock { $0 += 1 }
                return make()
            }()
        defer { idle.withLock { if $0.count < Self.maxIdle { $0.append(sessions) } } }
        return try body(sessions)
    }
}
