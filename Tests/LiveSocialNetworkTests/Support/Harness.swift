import Foundation
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork

/// A ``NetworkSocialAPI`` on a fake HTTP layer and a manual clock, signed in as `alan` with a
/// session that expires in ten minutes.
struct Harness {
    static let server = URL(string: "http://127.0.0.1:9")!
    static let seed: UInt64 = 2026

    let http: FakeHTTP
    let clock: ManualNetworkClock
    let api: NetworkSocialAPI
    let configuration: NetworkConfiguration

    @MainActor init(
        token: String = "t0", lifetime: Double = 600, handler: @escaping FakeHTTP.Handler = { _ in .json(SequenceBody(latestSequence: 1)) }
    ) {
        let clock = ManualNetworkClock()
        let http = FakeHTTP(handler: handler)
        configuration = NetworkConfiguration(
            requestTimeout: 10, heartbeatInterval: 15, missedHeartbeats: 2,
            backoff: ReconnectionBackoff(initialDelay: 1, maximumDelay: 8), renewalLeadTime: 60, clock: clock,
            randomSeed: Self.seed)
        let session = SessionBody(token: token, userId: "alan", expiresAt: clock.now.timeIntervalSince1970 + lifetime)
        api = NetworkSocialAPI(server: Self.server, session: session, configuration: configuration, transport: http)
        self.http = http
        self.clock = clock
    }

    /// The jitter the connection draws for its reconnections, in order: the same generator and seed.
    func expectedDelays(_ attempts: [Int]) -> [Double] {
        var random = SeededRandom(seed: Self.seed)
        return attempts.map { configuration.backoff.delay(forAttempt: $0, using: &random) }
    }

    /// Waits for the first connection state that `matches`.
    func waitForState(_ matches: @Sendable (ConnectionState) -> Bool) async -> ConnectionState? {
        for await state in api.connectionStateUpdates() where matches(state) { return state }
        return nil
    }
}

/// A stand-in for a session renewal answer.
func renewed(_ token: String, expiresAt: Date) -> HTTPResponse {
    .json(SessionBody(token: token, userId: "alan", expiresAt: expiresAt.timeIntervalSince1970))
}
