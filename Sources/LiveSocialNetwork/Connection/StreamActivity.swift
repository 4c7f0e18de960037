import Foundation
import LiveData

/// What one event stream has done so far: when it last received bytes, and whether the server
/// said `connected` on it. The reader writes it; the heartbeat watchdog and the loop read it.
final class StreamActivity: Sendable {
    private struct State {
        var lastActivity: Date
        var connected = false
    }

    private let state: LockedState<State>

    init(openedAt: Date) {
        state = LockedState(State(lastActivity: openedAt))
    }

    /// When bytes last arrived (or the stream opened).
    var last: Date { state.withLock { $0.lastActivity } }
    /// Whether the stream reached `connected`.
    var wasConnected: Bool { state.withLock { $0.connected } }

    /// Records bytes arriving at `time`.
    func touch(_ time: Date) { state.withLock { $0.lastActivity = max($0.lastActivity, time) } }

    /// Records the server's `connected` event.
    func markConnected() { state.withLock { $0.connected = true } }
}
