/// Waits for the first of a series of callbacks on the main actor: ``wait()`` returns the
/// value the first accepted ``fire(_:)`` gave; later calls are ignored.
@MainActor
public final class FirstCallback<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?
    private var early: Value?
    private var fired = false

    /// A callback that has not fired yet.
    public init() {}

    /// Delivers `value` to the waiter, once.
    public func fire(_ value: Value) {
        guard !fired else { return }
        fired = true
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: value)
        } else {
            early = value
        }
    }

    /// The first value fired, waiting for it if needed.
    public func wait() async -> Value {
        if let early { return early }
        return await withCheckedContinuation { continuation = $0 }
    }
}
