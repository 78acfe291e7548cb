import Foundation

/// A value guarded by a lock: `withLock` gives exclusive access (the shape of the standard
/// library's `Synchronization.Mutex`).
///
/// Why not `Mutex`: on Linux the standard library's `Mutex` locks with futexes that
/// ThreadSanitizer cannot see, so every access it guards is reported as a data race and real races
/// drown among false ones. This one uses `NSLock` (a pthread mutex, which ThreadSanitizer
/// understands), so `make sanitize` checks the package's locking for real. Use it in place of
/// `Mutex` in the library, the tools and the tests.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
