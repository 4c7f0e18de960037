/// Where a chat collection stands with the server's sequence of changes, as a pure state
/// machine: inputs in, the action to run out; no I/O, no clock, no tasks.
///
/// A collection has every change of its part of the server up to its point. While real-time
/// events arrive without a break since the point was set (``Phase/synced(point:live:)`` with
/// `live`), each committed event moves the point forward. When the connection drops, events may
/// be missed: the point stays where it is, and when the connection comes back the collection
/// reads the change log from it (``Action/catchUp(since:)``); events that arrive during the
/// catch-up do not move the point, since the log may still hold older changes. A connection that
/// drops while a catch-up runs may miss events the log was read too early to hold: the catch-up
/// ends with the point not live, and another one is owed once the connection is back. A catch-up
/// that fails while the connection stays up (a server failure) is tried again after a wait
/// (``Phase/waitingToRetry(point:)``), since no reconnection may ever come.
struct SyncPoint: Equatable {
    enum Phase: Equatable {
        /// The server has not answered yet: there is no point to catch up from.
        case unsynced
        /// Every change up to `point` is applied. `live`: real-time events have arrived without
        /// a break since, and each moves the point.
        case synced(point: Int64, live: Bool)
        /// Reading the change log from `point`; `dropped` once the connection dropped meanwhile.
        case catchingUp(point: Int64, dropped: Bool = false)
        /// A catch-up from `point` failed while the connection stayed up: it is tried again after
        /// a wait (``retryDue()``), or at once when the connection comes back.
        case waitingToRetry(point: Int64)
    }

    /// What the collection runs after an input.
    enum Action: Equatable {
        case none
        /// Read the change log after `since`, then report ``catchUpFinished(through:connected:)``
        /// or ``catchUpFailed(retrying:)``.
        case catchUp(since: Int64)
        /// Wait for the next retry of the client's ``RetryPolicy``, then report ``retryDue()``.
        case retryLater
        /// End the wait for a retry.
        case stopRetrying
    }

    private(set) var phase = Phase.unsynced

    /// The point, once the server answered.
    var point: Int64? {
        switch phase {
        case .unsynced: nil
        case .synced(let point, _), .catchingUp(let point, _), .waitingToRetry(let point): point
        }
    }

    /// Whether a catch-up runs.
    var isCatchingUp: Bool {
        if case .catchingUp = phase { true } else { false }
    }

    /// Whether a failed catch-up waits to be tried again.
    var isWaitingToRetry: Bool {
        if case .waitingToRetry = phase { true } else { false }
    }

    /// The server answered a first load whose changes go up to `sequence`.
    mutating func serverAnswered(through sequence: Int64, connected: Bool) {
        phase = .synced(point: sequence, live: connected)
    }

    /// A change committed; `sequence` is that of its real-time event, if one made it.
    mutating func changeCommitted(sequence: Int64?) {
        guard let sequence, case .synced(let point, true) = phase else { return }
        phase = .synced(point: max(point, sequence), live: true)
    }

    /// The connection dropped: events may be missed from now on, and a failed catch-up waits
    /// for the connection's return instead of a retry.
    @discardableResult
    mutating func disconnected() -> Action {
        switch phase {
        case .synced(let point, true):
            phase = .synced(point: point, live: false)
        case .waitingToRetry(let point):
            phase = .synced(point: point, live: false)
            return .stopRetrying
        case .catchingUp(let point, _):
            phase = .catchingUp(point: point, dropped: true)
        case .unsynced, .synced:
            break
        }
        return .none
    }

    /// The connection came back: catch up from the point (a retry waited for happens now),
    /// unless there is none or a catch-up runs.
    mutating func connected() -> Action {
        switch phase {
        case .synced(let point, _), .waitingToRetry(let point):
            phase = .catchingUp(point: point)
            return .catchUp(since: point)
        case .unsynced, .catchingUp:
            return .none
        }
    }

    /// The wait after a failed catch-up is over: catch up again from the same point, unless the
    /// connection dropped or came back since.
    mutating func retryDue() -> Action {
        guard case .waitingToRetry(let point) = phase else { return .none }
        phase = .catchingUp(point: point)
        return .catchUp(since: point)
    }

    /// The catch-up applied the change log up to `sequence`. Returns whether another is owed now:
    /// the connection dropped while it ran and is back (`connected`), so the events of the time
    /// between may be missed. The caller catches up again as on a reconnection (``connected()``).
    @discardableResult
    mutating func catchUpFinished(through sequence: Int64, connected: Bool) -> Bool {
        guard case .catchingUp(let point, let dropped) = phase else { return false }
        phase = .synced(point: max(point, sequence), live: connected && !dropped)
        return connected && dropped
    }

    /// The catch-up failed (or was abandoned): the next connection tries again from the same
    /// point, and so does a retry after a wait when `retrying` (the connection is up, and the
    /// collection goes on).
    @discardableResult
    mutating func catchUpFailed(retrying: Bool = false) -> Action {
        guard case .catchingUp(let point, _) = phase else { return .none }
        phase = retrying ? .waitingToRetry(point: point) : .synced(point: point, live: false)
        return retrying ? .retryLater : .none
    }
}
