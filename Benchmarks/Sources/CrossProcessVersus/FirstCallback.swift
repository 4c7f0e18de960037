/// Waits for the first of a series of callbacks on the main actor: ``wait()`` returns the
/// value the first accepted ``fire(_:)`` gave; later calls are ignored.
@MainActor
final class FirstCallback<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?
    private var early: Value?
    private var fired = false

    /// Delivers `value` to the waiter, once.
    func fire(_ value: Value) {
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
    func wait() async -> Value {
        if let early { return early }
        return await withCheckedContinuation { continuation = $0 }
    }
}
