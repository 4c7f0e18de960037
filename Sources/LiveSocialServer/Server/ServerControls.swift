import Foundation
import LiveData
import LiveSocial

/// The knobs tests and samples turn on an ``EmbeddedServer``: latency, failures, rejections.
///
/// No user code runs under the state's lock.
final class ServerControls: Sendable {
    struct State {
        var latency: Duration = .zero
        var failuresLeft = 0
        var failureMessage = "simulated server failure"
        var failingKinds: Set<ServerRequestKind> = []
        var failingKindsMessage = "simulated server failure"
        var rejectedFragments: [(fragment: String, reason: String)] = []
        var responsesToDrop = 0
        var requestCount = 0
    }

    private let state = LockedState(State())

    func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock(body)
    }

    /// Counts a request that reached the server and says whether it must fail, and how.
    func admit(_ kind: ServerRequestKind) -> SocialAPIError? {
        withState { state in
            state.requestCount += 1
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                return .serverFailure(state.failureMessage)
            }
            if state.failingKinds.contains(kind) { return .serverFailure(state.failingKindsMessage) }
            return nil
        }
    }

    /// Whether the answer to a request the server has just handled must be lost (thrown as offline).
    func dropsResponse() -> Bool {
        withState { state in
            guard state.responsesToDrop > 0 else { return false }
            state.responsesToDrop -= 1
            return true
        }
    }

    /// The reason a message text is refused, or nil when it passes every rule.
    func rejection(for text: String) -> String? {
        withState { state in state.rejectedFragments.first { text.localizedCaseInsensitiveContains($0.fragment) }?.reason }
    }
}
