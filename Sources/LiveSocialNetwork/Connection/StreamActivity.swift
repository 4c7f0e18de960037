import Foundation

/// What one event stream has done so far: when it last received bytes, and whether the server
/// said `connected` on it. The reader writes it; the heartbeat watchdog and the loop read it.
///
/// `@unchecked Sendable`: `lock` guards both values.
final class StreamActivity: @unchecked Sendable {
    private let lock = NSLock()
    private var lastActivity: Date
    private var connected = false

    init(openedAt: Date) {
        lastActivity = openedAt
    }

    /// When bytes last arrived (or the stream opened).
    var last: Date { lock.withLock { lastActivity } }
    /// Whether the stream reached `connected`.
    var wasConnected: Bool { lock.withLock { connected } }

    /// Records bytes arriving at `time`.
    func touch(_ time: Date) { lock.withLock { lastActivity = max(lastActivity, time) } }

    /// Records the server's `connected` event.
    func markConnected() { lock.withLock { connected = true } }
}
