import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// A client signed in as `ada` over an in-memory cache, through a ``CatchUpGateAPI`` in front of
/// `server`, connected in real time, whose retries after server failures wait exactly 0.5 s,
/// 1 s, 2 s, … (no jitter) on `clock`.
@MainActor
func retryingClient(of server: EmbeddedServer, clock: ManualClock) async throws -> (CatchUpGateAPI, SocialClient) {
    let api = CatchUpGateAPI(base: server.connection(userId: "ada"))
    let stamps = Stamps()
    let client = try await SocialClient.open(api: api, userId: "ada", cache: .inMemory, now: { stamps.next() })
    client.retryPolicy = RetryPolicy(clock: clock, random: { 0 })
    client.startRealtime()
    try await waitUntilHolds { client.isConnected }
    return (api, client)
}

/// Waits until `condition` holds, looking again after each turn of the main actor. Fails the test
/// after 20 seconds: a bound against a hang, never a way to order events.
@MainActor
func waitUntilHolds(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        try #require(ContinuousClock.now < deadline, "a condition never held", sourceLocation: sourceLocation)
        await Task.yield()
    }
}
