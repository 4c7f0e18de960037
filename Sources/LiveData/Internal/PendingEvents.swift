import Foundation

/// The events posted with `postEvent(_:)` and not yet sent on the main thread, in post order.
///
/// `@unchecked Sendable`: `lock` guards `events`. Events enter with `sending` (the poster gives
/// up access) and leave only on the main actor, so no event is ever shared between two threads.
final class PendingEvents<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [Value] = []

    /// Appends `event` after the waiting ones.
    /// - Returns: Whether none was waiting, that is, whether the caller must schedule a take.
    func append(_ event: sending Value) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        events.append(event)
        return events.count == 1
    }

    /// Removes and returns every waiting event, oldest first.
    func takeAll() -> [Value] {
        lock.lock()
        defer { lock.unlock() }
        let taken = events
        events = []
        return taken
    }
}
