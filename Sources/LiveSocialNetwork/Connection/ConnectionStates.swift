import Foundation
import LiveData

/// The connection's state: the current value for any thread, the `LiveData` a view model binds
/// to, and a stream of changes for code that awaits them.
///
/// Once ``ConnectionState/signedOut(reason:)``, the state never changes again: a new session
/// is a new ``NetworkSocialAPI``.
///
/// `@unchecked Sendable`: `lock` guards `state` and `listeners`; values are posted to the
/// `LiveData` and yielded to listeners in the order they were set (both under the lock: neither
/// runs an observer there, the `LiveData` hands the value to the main thread).
final class ConnectionStates: @unchecked Sendable {
    private let lock = NSLock()
    private var state: ConnectionState
    private var listeners: [UInt64: AsyncStream<ConnectionState>.Continuation] = [:]
    private var nextListener: UInt64 = 0
    /// The `LiveData` the states are posted to.
    let liveData: MutableLiveData<ConnectionState>

    @MainActor init(_ initial: ConnectionState) {
        state = initial
        liveData = MutableLiveData(data: initial)
    }

    /// The current state.
    var current: ConnectionState { lock.withLock { state } }

    /// Sets the state; ignored once signed out, and when it is the current one.
    func set(_ newState: ConnectionState) {
        lock.withLock {
            if case .signedOut = state { return }
            guard newState != state else { return }
            state = newState
            liveData.postValue(newState)
            for listener in listeners.values { listener.yield(newState) }
        }
    }

    /// The current state, then every change.
    func updates() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self)
        let id = lock.withLock {
            nextListener += 1
            listeners[nextListener] = continuation
            continuation.yield(state)
            return nextListener
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
