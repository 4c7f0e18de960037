import Foundation

/// A value behind an `NSLock`, for test doubles shared across threads.
///
/// The tests use it instead of `Synchronization.Mutex`: on Linux the thread sanitizer does not
/// see `Mutex`'s futex hand-off between threads, so it reported accesses made inside `withLock`
/// from two threads as a race. `NSLock` is a `pthread_mutex`, which the sanitizer knows.
///
/// `@unchecked Sendable`: `lock` guards `value`; `body` runs under it and must not call back
/// into code that takes the same lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock, and returns its result.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
