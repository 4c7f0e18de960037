import Synchronization

/// Hands out send numbers to the load phase's sender threads, and keeps the first failure one
/// of them met.
final class NumberSource: Sendable {
    private let state: Mutex<(next: Int, failure: String?)>

    /// A source whose first number is `first`.
    init(first: Int) {
        state = Mutex((first, nil))
    }

    /// The next number.
    func take() -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// The next number not yet taken.
    var taken: Int { state.withLock { $0.next } }

    /// Notes a sender's failure (the first one is kept).
    func fail(_ message: String) {
        state.withLock { $0.failure = $0.failure ?? message }
    }

    /// The first failure, if any.
    var failure: String? { state.withLock { $0.failure } }
}
