import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// The embedded server's API as a client sees it, failing the next message sends the test asks
/// for with a server failure (an HTTP 500, as a server whose database restarts answers), and
/// recording every send attempt and how many were under way at once.
final class FlakySendsAPI: ForwardingAPI {
    /// The error of a failed send.
    static let failure = SocialAPIError.serverFailure("HTTP 500: the database is restarting")

    private struct State {
        var failuresLeft = 0
        var attempts: [String] = []
        var sending = 0
        var mostSendingAtOnce = 0
    }

    let base: EmbeddedServer.Connection
    private let state = Locked(State())

    init(base: EmbeddedServer.Connection) {
        self.base = base
    }

    /// Makes the next `count` message sends fail with ``failure`` without reaching the server.
    func failNextSends(_ count: Int) {
        state.withLock { $0.failuresLeft = count }
    }

    /// The client request id of every message send asked for so far, failed or not, in order.
    var attempts: [String] { state.withLock { $0.attempts } }
    /// The most message sends that were under way at one time.
    var mostSendingAtOnce: Int { state.withLock { $0.mostSendingAtOnce } }

    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
        guard case .sendMessage(_, let clientRequestId, _, _, _, _) = mutation else { return try await base.perform(mutation) }
        let fails = state.withLock { state -> Bool in
            state.attempts.append(clientRequestId)
            state.sending += 1
            state.mostSendingAtOnce = max(state.mostSendingAtOnce, state.sending)
            guard state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
        defer { state.withLock { $0.sending -= 1 } }
        if fails { throw Self.failure }
        return try await base.perform(mutation)
    }

}

/// A seeded embedded server on a manual clock, and a client signed in as `ada` over an in-memory
/// cache through a ``FlakySendsAPI``, connected in real time, whose resends after server failures
/// wait on a second manual clock with exact waits (no jitter): 0.5 s, 1 s, 2 s, …
@MainActor
struct FlakySendsFixture {
    /// The server's clock (request latency).
    let clock = ManualClock()
    /// The clock of the client's waits between resends.
    let resendClock = ManualClock()
    let server: EmbeddedServer
    let api: FlakySendsAPI

    init() async throws {
        server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: 1_700_000_000)
        try await server.seedDemoData()
        api = FlakySendsAPI(base: server.connection(userId: "ada"))
    }

    /// A new client over the API, with exact resend waits on ``resendClock``, connected.
    func makeClient() async throws -> SocialClient {
        let stamps = Stamps()
        let client = try await SocialClient.open(api: api, userId: "ada", cache: .inMemory, now: { stamps.next() })
        client.retryPolicy = RetryPolicy(clock: resendClock, random: { 0 })
        client.startRealtime()
        try await waitForConnection(client, connected: true)
        // The first connection resends what an earlier run left pending, after a read of the
        // cache: let that pass, so that its attempt cannot take a test's first send early.
        try await settle(client)
        return client
    }

    /// Waits until the client waits on the resend clock. Unlike `ManualClock.waitForSleepers(_:)`
    /// it stops when the test is cancelled, so a client that never waits fails the test at its
    /// time limit instead of holding the run.
    func waitForResendWait() async throws {
        let clock = resendClock
        let wait = CancellableWait()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.start(continuation)
                Task {
                    await clock.waitForSleepers(1)
                    wait.finish(.success(()))
                }
            }
        } onCancel: {
            wait.finish(.failure(CancellationError()))
        }
    }

    /// Moves the resend clock by `duration` once the client waits on it, and returns whether that
    /// wait is still running: false when it ended.
    func advanceResendClock(by duration: Duration) async throws -> Bool {
        try await waitForResendWait()
        resendClock.advance(by: duration)
        return resendClock.sleeperCount == 1
    }
}

/// A wait that ends with the first of two outcomes: what it waits for, or the test's cancellation.
private final class CancellableWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var outcome: Result<Void, any Error>?
    }

    private let state = Locked(State())

    /// Hands over the waiting continuation; resumes it at once if the wait already ended.
    func start(_ continuation: CheckedContinuation<Void, any Error>) {
        let outcome = state.withLock { state -> Result<Void, any Error>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    /// Ends the wait with `outcome`, unless it already ended.
    func finish(_ outcome: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}
