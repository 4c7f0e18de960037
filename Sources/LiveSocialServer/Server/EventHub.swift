import Foundation
import LiveSocial

/// The server's real-time fan-out and connection switch, and how far into the change log it has
/// published.
///
/// Each subscriber is a signed-in user's stream: a change event reaches it only when the event's
/// ``EventAudience`` admits that user (see ``AccessRules``).
///
/// `@unchecked Sendable`: `lock` guards `isConnected`, `subscribers`, `nextID` and
/// `publishedSequence`. Events are yielded after unlocking; ``EmbeddedServer`` publishes from
/// its actor only, one batch after another and in sequence order (its own writes and other
/// processes' alike), so every subscriber receives change events in sequence order.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var connected = true
    private var subscribers: [Int: (userId: String, continuation: AsyncStream<SocialEvent>.Continuation)] = [:]
    private var nextID = 0
    private var position: Int64

    /// A hub whose change-log position starts at `sequence`: changes up to it are never published.
    init(publishedThrough sequence: Int64 = 0) {
        position = sequence
    }

    /// The sequence number of the last change-log entry published (or passed over while
    /// disconnected, or written without an event); the next publication starts after it.
    var publishedSequence: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return position
    }

    var isConnected: Bool {
        lock.lock()
        defer { lock.unlock() }
        return connected
    }

    var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }

    /// A new stream of the events `userId` may receive, starting with the current connection state.
    func subscribe(userId: String) -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream<SocialEvent>.makeStream()
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        lock.lock()
        subscribers[id] = (userId, continuation)
        let state: SocialEvent = connected ? .connected : .disconnected
        // Yielding under the lock keeps the state event first, before any concurrent publish.
        continuation.yield(state)
        lock.unlock()
        return stream
    }

    /// Whether publishing now would reach anyone: connected, with at least one subscriber.
    var hasListeners: Bool {
        lock.lock()
        defer { lock.unlock() }
        return connected && !subscribers.isEmpty
    }

    /// Delivers each change event to the subscribers its audience admits (`audiences[i]` is the
    /// audience of `events[i]`), unless disconnected (then they are missed), and moves the
    /// published position to `sequence` (never back).
    func publish(_ events: [SocialEvent], audiences: [EventAudience], through sequence: Int64) {
        precondition(events.count == audiences.count, "every event has its audience")
        lock.lock()
        position = max(position, sequence)
        let targets = connected && !events.isEmpty ? Array(subscribers.values) : []
        lock.unlock()
        for target in targets {
            for (event, audience) in zip(events, audiences) where audience.admits(target.userId) {
                target.continuation.yield(event)
            }
        }
    }

    /// Switches the connection; subscribers get `.connected` or `.disconnected` when it changes.
    func setConnected(_ value: Bool) {
        lock.lock()
        let changed = connected != value
        connected = value
        let targets = changed ? subscribers.values.map(\.continuation) : []
        lock.unlock()
        for continuation in targets { continuation.yield(value ? .connected : .disconnected) }
    }

    private func unsubscribe(_ id: Int) {
        lock.lock()
        let continuation = subscribers.removeValue(forKey: id)
        lock.unlock()
        _ = continuation  // released here, outside the lock
    }
}
