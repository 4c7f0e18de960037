import Foundation
import LiveData

/// The connection's state: the current value for any thread, the `LiveData` a view model binds
/// to, and a stream of changes for code that awaits them.
///
/// Once ``ConnectionState/signedOut(reason:)``, the state never changes again: a new session
/// is a new ``NetworkSocialAPI``.
///
/// States are posted to the `LiveData` and yielded to listeners in the order they were set:
/// both happen under the lock, and neither runs an observer there (the `LiveData` hands the
/// value to the main thread; `yield` runs no user code).
final class ConnectionStates: Sendable {
    private struct State {
        var current: ConnectionState
        var listeners: [UInt64: AsyncStream<ConnectionState>.Continuation] = [:]
        var nextListener: UInt64 = 0
    }

    private let state: LockedState<State>
    /// The `LiveData` the states are posted to.
    let liveData: MutableLiveData<ConnectionState>

    @MainActor init(_ initial: ConnectionState) {
        state = LockedState(State(current: initial))
        liveData = MutableLiveData(data: initial)
    }

    /// The current state.
    var current: ConnectionState { state.withLock { $0.current } }

    /// Sets the state; ignored once signed out, and when it is the current one.
    func set(_ newState: ConnectionState) {
        state.withLock { state in
            if case .signedOut = state.current { return }
            guard newState != state.current else { return }
            state.current = newState
            liveData.postValue(newState)
            for listener in state.listeners.values { listener.yield(newState) }
        }
    }

    /// The current state, then every change.
    func updates() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self)
        let id = state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = continuation
            continuation.yield(state.current)
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
