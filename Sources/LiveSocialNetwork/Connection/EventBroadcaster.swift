import Foundation
import LiveData
import LiveSocial

/// Hands the real-time events of one connection to every stream ``NetworkSocialAPI/events()``
/// made, each starting with the connection's current state.
///
/// Events are yielded under the lock so that a new stream's first event (the state) is never
/// overtaken; `yield` runs no user code. Streams are finished outside the lock, since finishing
/// runs their termination handler, which takes the lock.
final class EventBroadcaster: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<SocialEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var isConnected = false
        var isFinished = false

        /// Sends `event` to every stream.
        func yield(_ event: SocialEvent) {
            for subscriber in subscribers.values { subscriber.yield(event) }
        }
    }

    private let state = LockedState(State())

    /// A new stream: ``SocialEvent/connected`` or ``SocialEvent/disconnected`` first, then every event.
    func subscribe() -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SocialEvent.self)
        let id: UInt64? = state.withLock { state in
            continuation.yield(state.isConnected ? .connected : .disconnected)
            guard !state.isFinished else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Sends a change event to every stream.
    func publish(_ event: SocialEvent) {
        state.withLock { $0.yield(event) }
    }

    /// Records the connection's state; a change is sent as ``SocialEvent/connected`` or ``SocialEvent/disconnected``.
    func setConnected(_ connected: Bool) {
        state.withLock { state in
            guard connected != state.isConnected else { return }
            state.isConnected = connected
            state.yield(connected ? .connected : .disconnected)
        }
    }

    /// Sends ``SocialEvent/disconnected`` if connected, then ends every stream (the session ended).
    func finish() {
        let ended = state.withLock { state in
            if state.isConnected {
                state.isConnected = false
                state.yield(.disconnected)
            }
            state.isFinished = true
            let ended = Array(state.subscribers.values)
            state.subscribers = [:]
            return ended
        }
        for subscriber in ended { subscriber.finish() }
    }
}
