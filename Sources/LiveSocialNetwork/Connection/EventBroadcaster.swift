import Foundation
import LiveSocial

/// Hands the real-time events of one connection to every stream ``NetworkSocialAPI/events()``
/// made, each starting with the connection's current state.
///
/// `@unchecked Sendable`: `lock` guards `subscribers` and `isConnected`. Events are yielded
/// under the lock so that a new stream's first event (the state) is never overtaken;
/// `yield` runs no user code. Streams are finished outside the lock, since finishing runs
/// their termination handler, which takes the lock.
final class EventBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UInt64: AsyncStream<SocialEvent>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var isConnected = false
    private var isFinished = false

    /// A new stream: ``SocialEvent/connected`` or ``SocialEvent/disconnected`` first, then every event.
    func subscribe() -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SocialEvent.self)
        let id: UInt64? = lock.withLock {
            continuation.yield(isConnected ? .connected : .disconnected)
            guard !isFinished else { return nil }
            nextSubscriber += 1
            subscribers[nextSubscriber] = continuation
            return nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Sends a change event to every stream.
    func publish(_ event: SocialEvent) {
        lock.withLock {
            for subscriber in subscribers.values { subscriber.yield(event) }
        }
    }

    /// Records the connection's state; a change is sent as ``SocialEvent/connected`` or ``SocialEvent/disconnected``.
    func setConnected(_ connected: Bool) {
        lock.withLock {
            guard connected != isConnected else { return }
            isConnected = connected
            for subscriber in subscribers.values { subscriber.yield(connected ? .connected : .disconnected) }
        }
    }

    /// Sends ``SocialEvent/disconnected`` if connected, then ends every stream (the session ended).
    func finish() {
        let ended = lock.withLock {
            if isConnected {
                isConnected = false
                for subscriber in subscribers.values { subscriber.yield(.disconnected) }
            }
            isFinished = true
            let ended = Array(subscribers.values)
            subscribers = [:]
            return ended
        }
        for subscriber in ended { subscriber.finish() }
    }
}
