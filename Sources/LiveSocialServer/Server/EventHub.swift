import Foundation
import LiveSocial

/// The server's real-time fan-out and connection switch.
///
/// `@unchecked Sendable`: `lock` guards `isConnected`, `subscribers` and `nextID`. Events are
/// yielded after unlocking; ``EmbeddedServer`` publishes from its actor only, one batch after
/// another, so every subscriber receives change events in sequence order.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var connected = true
    private var subscribers: [Int: AsyncStream<SocialEvent>.Continuation] = [:]
    private var nextID = 0

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

    /// A new stream of events, starting with the current connection state.
    func subscribe() -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream<SocialEvent>.makeStream()
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        lock.lock()
        subscribers[id] = continuation
        let state: SocialEvent = connected ? .connected : .disconnected
        // Yielding under the lock keeps the state event first, before any concurrent publish.
        continuation.yield(state)
        lock.unlock()
        return stream
    }

    /// Delivers change events to every subscriber, unless disconnected (then they are missed).
    func publish(_ events: [SocialEvent]) {
        guard !events.isEmpty else { return }
        lock.lock()
        let targets = connected ? Array(subscribers.values) : []
        lock.unlock()
        for continuation in targets {
            for event in events { continuation.yield(event) }
        }
    }

    /// Switches the connection; subscribers get `.connected` or `.disconnected` when it changes.
    func setConnected(_ value: Bool) {
        lock.lock()
        let changed = connected != value
        connected = value
        let targets = changed ? Array(subscribers.values) : []
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
