/// The events posted with `postEvent(_:)` and not yet sent on the main thread, in post order.
///
/// `@unchecked Sendable`: `events`' lock guards the waiting events, which are not `Sendable`.
/// Events enter with `sending` (the poster gives up access) and leave only on the main actor, so
/// no event is ever shared between two threads.
final class PendingEvents<Value>: @unchecked Sendable {
    private let events = LockedState<[Value]>([])

    /// Appends `event` after the waiting ones.
    /// - Returns: Whether none was waiting, that is, whether the caller must schedule a take.
    func append(_ event: sending Value) -> Bool {
        events.withLock { events in
            events.append(event)
            return events.count == 1
        }
    }

    /// Removes and returns every waiting event, oldest first.
    func takeAll() -> [Value] {
        events.withLock { events in
            let taken = events
            events = []
            return taken
        }
    }
}
