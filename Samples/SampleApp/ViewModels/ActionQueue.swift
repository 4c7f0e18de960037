/// Runs a view model's actions one after the other, in the order they were added, while the
/// caller goes on at once: each action starts when the one before it has ended.
///
/// For actions whose outcome the next one builds on (following then unfollowing, adding then
/// taking back a reaction): run at the same time, their requests could reach the server in
/// either order.
@MainActor
final class ActionQueue {
    private var last: Task<Void, Never>?
    private var count = 0
    /// Called when the last action queued has ended and no other is waiting.
    var onIdle: () -> Void = {}

    /// Queues `action` after the ones already queued.
    ///
    /// - Returns: the task running it, which ends when the action has (for tests).
    @discardableResult
    func run(_ action: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let previous = last
        count += 1
        let task = Task { @MainActor [weak self] in
            await previous?.value
            await action()
            guard let self else { return }
            count -= 1
            if count == 0 { onIdle() }
        }
        last = task
        return task
    }
}
