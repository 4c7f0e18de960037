import Foundation
import LiveRepository
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `SocialClient` on the network transport: its real-time loop reads the transport's events,
/// and a reconnection makes it catch up from the change log.
@Suite struct SocialClientOverNetworkTests {
    static let channel = Channel(id: "general", displayName: "General", type: .community, lastActivityAt: 1, createdAt: 1, updatedAt: 1)

    @Test @MainActor func aReconnectionMakesTheClientCatchUpFromTheChangeLog() async throws {
        var renamed = Self.channel
        renamed.displayName = "Renamed while away"
        renamed.updatedAt = 2
        let log = ChangeLog(records: [.channel(renamed)], deleted: [], latestSequence: 9, hasMore: false)
        let harness = Harness { request in
            request.url.path == WireRoute.changes ? .json(Wire(log)) : HTTPResponse(status: 204)
        }
        let client = try SocialClient(api: harness.api, userId: "alan", cache: .inMemory)
        client.startRealtime()
        let first = await harness.http.waitForStream(1)
        first.connect()
        try await waitUntil { client.isConnected }
        first.send(try WireEventStream.frame(.created(.channel(Self.channel), sequence: 5)))
        try await waitUntil { client.lastEventSequence == 5 }
        #expect(harness.http.requests(to: WireRoute.changes).isEmpty)

        first.continuation.finish(throwing: URLError(.networkConnectionLost))
        try await waitUntil { !client.isConnected }
        guard case .reconnecting(1, let nextTry) = await harness.waitForState({ if case .reconnecting = $0 { true } else { false } }) else {
            Issue.record("no reconnection")
            return
        }
        harness.clock.advance(to: nextTry)
        (await harness.http.waitForStream(2)).connect()
        try await waitUntil { client.lastEventSequence == 9 }
        let catchUp = try #require(harness.http.requests(to: WireRoute.changes).first)
        #expect(catchUp.url.query == "since=5&limit=\(500)&scope=all")
        #expect(try await client.store.read { try Channel.read(id: "general", from: $0) }?.displayName == "Renamed while away")
        client.stopRealtime()
        await harness.api.signOut()
    }

    /// Waits (bounded, yielding) until `condition` holds; the time limit only fails the test.
    @MainActor private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "a condition never held")
            await Task.yield()
        }
    }
}
