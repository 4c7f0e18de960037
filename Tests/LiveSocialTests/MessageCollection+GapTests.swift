import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// The message collection's huge gap: more than its threshold of messages changed while it was
/// offline. The helpers come from MessageCollection+SyncTests.swift and Support/.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageCollectionGapTests {
    @Test func aHugeGapIsReportedAndNothingApplied() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general")
        let (events, observer) = opened.collection.recordEvents()
        let shown = opened.collection.succeededMessages
        _ = try await fixture.sendOffline(count: 500, prefix: "gap")
        _ = try await opened.recorder.next { $0 == .hugeGapDetected }
        try await fixture.settle()
        #expect(opened.recorder.addedMessages.isEmpty)
        #expect(opened.collection.succeededMessages == shown)
        #expect(events.all.contains(.hugeGapDetected))
        opened.collection.events.remove(observer: observer)

        // What the delegate is told to do: dispose, and open a new collection.
        opened.collection.dispose()
        let fresh = try await fixture.open("general")
        #expect(fresh.result.api == Array(try await fixture.serverMessages("general").suffix(20)))
        #expect(fresh.result.api?.last?.text == "gap 499")
    }

    @Test func theHugeGapThresholdCanBeChanged() async throws {
        let fixture = try await ClientFixture()
        #expect(fixture.client.createMessageCollection(channelId: "general").hugeGapThreshold == 300)
        let opened = try await fixture.open("general", hugeGapThreshold: 10)
        #expect(opened.collection.hugeGapThreshold == 10)

        // Exactly the threshold: applied.
        let missed = try await fixture.sendOffline(count: 10, prefix: "first")
        let added = try await opened.recorder.next { $0.isAdded() }
        #expect(added == .added(missed, MessageContext(sendingStatus: .succeeded, source: .changelog)))

        // One more than the threshold: a huge gap, and nothing applied.
        let shown = opened.collection.succeededMessages
        _ = try await fixture.sendOffline(count: 11, prefix: "second")
        _ = try await opened.recorder.next { $0 == .hugeGapDetected }
        try await fixture.settle()
        #expect(opened.recorder.addedMessages == missed)
        #expect(opened.collection.succeededMessages == shown)
    }

    // A collection that reported a huge gap is stale: it ignores the change log another collection
    // of the same channel applies.
    @Test func aCollectionWithAHugeGapAppliesNothingThatAnotherCollectionCatchesUp() async throws {
        let fixture = try await ClientFixture()
        let strict = try await fixture.open("general", hugeGapThreshold: 10)
        let lenient = try await fixture.open("general", hugeGapThreshold: 11)
        let shown = strict.collection.succeededMessages
        let missed = try await fixture.sendOffline(count: 11, prefix: "missed")
        _ = try await strict.recorder.next { $0 == .hugeGapDetected }
        let added = try await lenient.recorder.next { $0.isAdded() }
        #expect(added == .added(missed, MessageContext(sendingStatus: .succeeded, source: .changelog)))
        try await fixture.settle()
        #expect(!lenient.recorder.log.all.contains(.hugeGapDetected))
        // The strict collection reported a huge gap: it must not go on to fill it.
        #expect(strict.recorder.addedMessages.isEmpty)
        #expect(strict.collection.succeededMessages == shown)
    }

    // Messages the collection already shows are not missed: the user's own messages, sent while
    // the start waited for the server and shown by it, are in the change log after the sync point
    // the start took, but the catch-up does not count them toward the threshold (issue 24; found by
    // MessageCollectionModelTests, seed 70145).
    @Test func messagesTheCollectionAlreadyShowsDoNotCountTowardTheThreshold() async throws {
        let fixture = try await ClientFixture()
        let (client, gate) = try fixture.gatedClient()
        let collection = client.createMessageCollection(channelId: "general", hugeGapThreshold: 3)
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        await gate.close()
        let start = Task { await collection.start() }
        await gate.waitUntilHolding(2)
        let mine = [try await client.messages.send("mine 1", to: "general"), try await client.messages.send("mine 2", to: "general")]
        await gate.open()
        #expect(await start.value.apiError == nil)
        #expect(Array(collection.succeededMessages.suffix(2)) == mine, "both sent messages are shown")

        // Exactly the threshold changed offline: a catch-up, not a huge gap.
        let missed = try await fixture.sendOffline(count: 3, prefix: "missed")
        let heard = try await recorder.next { $0.isAdded(source: .changelog) || $0 == .hugeGapDetected }
        #expect(heard == .added(missed, MessageContext(sendingStatus: .succeeded, source: .changelog)))
        #expect(Array(collection.succeededMessages.suffix(5)) == mine + missed)
    }
}

extension ClientFixture {
    /// Disconnects, sends `count` messages to `general` as other users (in turn) while the client
    /// misses their events, reconnects, and returns the server's copies.
    func sendOffline(count: Int, prefix: String, from userIds: [String] = ["alan"]) async throws -> [Message] {
        server.disconnect()
        var sent: [Message] = []
        for index in 0..<count {
            sent.append(try await sendAsOther("\(prefix) \(index)", as: userIds[index % userIds.count]))
        }
        server.reconnect()
        return sent
    }
}
