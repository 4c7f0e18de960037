import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// A message collection whose own catch-up the server fails while the connection stays up (and
/// the client-wide catch-up succeeds): it tries again after the waits of the client's retry
/// policy, not only at the next reconnection, which may never come.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct MessageCollectionRetryTests {
    @Test func aCatchUpTheServerFailsIsRetriedAfterAWaitWhileTheConnectionStaysUp() async throws {
        let (fixture, api, client, clock) = try await Self.connectedClient()
        let opened = try await Self.open(client)
        let missed = try await Self.missMessage(fixture, api: api, client: client)
        // The server fails the collection's change log twice (its database restarting, say); the
        // event stream stays up.
        api.failNextCollectionLogs(2)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }
        #expect(api.collectionLogRequests == 1)
        clock.advance(by: .milliseconds(499))
        try await settle(client)
        #expect(api.collectionLogRequests == 1, "the first retry waits half a second")
        clock.advance(by: .milliseconds(1))
        try await waitUntilHolds { api.collectionLogRequests == 2 && clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(999))
        try await settle(client)
        #expect(api.collectionLogRequests == 2, "the second retry waits a second")
        clock.advance(by: .milliseconds(1))

        let added = try await opened.recorder.next { $0.isAdded(source: .changelog) }
        #expect(added == .added([missed], MessageContext(sendingStatus: .succeeded, source: .changelog)))
        #expect(api.collectionLogRequests == 3)
        try await settle(client)
        #expect(clock.sleeperCount == 0, "a catch-up that succeeds waits for nothing more")
        #expect(opened.collection.succeededMessages.filter { $0.id == missed.id }.count == 1)

        // The waits start over after the success: the next failure waits half a second again.
        let second = try await Self.missMessage(fixture, api: api, client: client, text: "missed again")
        api.failNextCollectionLogs(1)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(500))
        let again = try await opened.recorder.next { $0.isAdded(source: .changelog) }
        #expect(again == .added([second], MessageContext(sendingStatus: .succeeded, source: .changelog)))
        #expect(api.collectionLogRequests == 5)
    }

    @Test func aDroppedConnectionEndsTheWaitAndTheReconnectionCatchesUpAtOnce() async throws {
        let (fixture, api, client, clock) = try await Self.connectedClient()
        let opened = try await Self.open(client)
        let missed = try await Self.missMessage(fixture, api: api, client: client)
        api.failNextCollectionLogs(1)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }

        api.send(.disconnected)
        try await waitUntilHolds { clock.sleeperCount == 0 }
        #expect(api.collectionLogRequests == 1)
        api.send(.connected)
        let added = try await opened.recorder.next { $0.isAdded(source: .changelog) }
        #expect(added == .added([missed], MessageContext(sendingStatus: .succeeded, source: .changelog)))
        #expect(api.collectionLogRequests == 2)
        try await settle(client)
        #expect(clock.sleeperCount == 0)
    }

    @Test func disposingEndsTheWait() async throws {
        let (fixture, api, client, clock) = try await Self.connectedClient()
        let opened = try await Self.open(client)
        _ = try await Self.missMessage(fixture, api: api, client: client)
        api.failNextCollectionLogs(1)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }

        opened.collection.dispose()
        try await waitUntilHolds { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(60))
        try await settle(client)
        #expect(api.collectionLogRequests == 1)
    }

    // MARK: Helpers

    private static func connectedClient() async throws -> (ClientFixture, CatchUpGateAPI, SocialClient, ManualClock) {
        let fixture = try await ClientFixture(realtime: false)
        let clock = ManualClock()
        let (api, client) = try await retryingClient(of: fixture.server, clock: clock)
        return (fixture, api, client, clock)
    }

    /// The `general` channel's collection, started: the server's answer gave it a sync point.
    private static func open(_ client: SocialClient) async throws -> OpenedCollection {
        let collection = client.createMessageCollection(channelId: "general")
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        let result = await collection.start()
        return OpenedCollection(collection: collection, recorder: recorder, result: result)
    }

    /// Drops the connection, and has `alan` send `text` to `general` meanwhile.
    private static func missMessage(
        _ fixture: ClientFixture, api: CatchUpGateAPI, client: SocialClient, text: String = "missed"
    ) async throws -> Message {
        api.send(.disconnected)
        try await waitUntilHolds { !client.isConnected }
        return try await fixture.sendAsOther(text)
    }
}
