import Foundation

/// A value that several threads share, behind a lock: the one way the modules of this package
/// keep mutable state off the main actor.
///
/// The state is reachable only inside ``withLock(_:)``, so an access without the lock does not
/// compile. Keep the body short and never call user code in it (an observer, a continuation's
/// `resume`, a callback): take what you need out of the state, and act after the body returns.
///
/// ```swift
/// let counter = LockedState(0)
/// let next = counter.withLock { value in
///     value += 1
///     return value
/// }
/// ```
///
/// The model is swift-async-algorithms' `ManagedCriticalState`. The standard library's `Mutex`
/// would do the same, but it needs iOS 18 and this package supports iOS 17.
package final class LockedState<State> {
    private let lock = NSLock()
    private var state: State

    /// Creates a box holding `initial`.
    package init(_ initial: sending State) {
        state = initial
    }

    /// Runs `body` with the state while holding the lock, and returns what it returns.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// `@unchecked`: `lock` guards `state`, and `withLock(_:)` is the only way to it; a `Sendable`
// state never escapes into two threads unguarded.
extension LockedState: @unchecked Sendable where State: Sendable {}
