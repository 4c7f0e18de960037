/// The waits after failures in a row, on a ``RetryPolicy``: each wait is longer than the one
/// before, until ``reset()``. The message outbox, the client-wide catch-up and each chat
/// collection (for its own catch-up) keep one.
@MainActor
final class RetrySchedule {
    /// The failures counted since the last ``reset()``: the number of the retry waited for.
    private(set) var failuresInARow = 0
    private var wait: Task<Void, Never>?

    deinit {
        wait?.cancel()
    }

    /// Counts a failure, then runs `action` on the main actor after the wait of the retry it
    /// makes, on `policy`'s clock; a wait already running is replaced.
    func schedule(_ policy: RetryPolicy, then action: @escaping @MainActor () -> Void) {
        wait?.cancel()
        failuresInARow += 1
        let delay = policy.delay(forRetry: failuresInARow)
        let clock = policy.clock
        wait = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            // Back on the main actor: a cancel may have come since the wait ended.
            guard !Task.isCancelled, let self else { return }
            wait = nil
            action()
        }
    }

    /// ``schedule(_:then:)`` for an action on `owner`, which the schedule holds weakly: an owner
    /// that keeps its schedule is not kept alive by its own wait, and an owner gone by the end of
    /// the wait is not called. A chat collection retries its catch-up this way.
    func schedule<Owner: AnyObject & Sendable>(
        _ policy: RetryPolicy, for owner: Owner, then action: @escaping @MainActor (Owner) -> Void
    ) {
        schedule(policy) { [weak owner] in
            guard let owner else { return }
            action(owner)
        }
    }

    /// Ends the wait under way, if any, without its action; the count stays.
    func cancel() {
        wait?.cancel()
        wait = nil
    }

    /// Starts the count over (after a success or a reconnection); a wait under way goes on.
    func reset() {
        failuresInARow = 0
    }
}
