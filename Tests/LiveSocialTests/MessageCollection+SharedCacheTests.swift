import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing
import TestSupport

/// Chat collections hear every commit to their cache file through the store's change hub: also
/// those of another client on the same file (another connection, as an app extension has), which
/// they read and report with the source `.cache`, once, and without a report for a row that did
/// not change.
@Suite @MainActor
struct MessageCollectionSharedCacheTests {
    /// Client A (with real time) and client B (an extension's: no real time) of the same user on
    /// one cache file, each with a collection of "general" started while connected.
    @MainActor private struct Pair {
        let folder: TemporaryDirectory
        let fixture: ClientFixture
        let other: SocialClient
        let collection: MessageCollection
        let recorder: MessageCollectionRecorder
        let otherCollection: MessageCollection
        let otherRecorder: MessageCollectionRecorder

        var client: SocialClient { fixture.client }

        init() async throws {
            folder = try TemporaryDirectory()
            let url = folder.file("cache.sqlite")
            fixture = try await ClientFixture(cache: .file(url))
            let stamps = Stamps()
            other = try SocialClient(api: fixture.server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                     now: { stamps.next() + 0.5 })
            (collection, recorder) = try await Self.open(fixture.client)
            (otherCollection, otherRecorder) = try await Self.open(other)
        }

        private static func open(_ client: SocialClient) async throws -> (MessageCollection, MessageCollectionRecorder) {
            let collection = client.createMessageCollection(channelId: "general")
            let recorder = MessageCollectionRecorder()
            collection.delegate = recorder
            let start = await collection.start()
            #expect(start.apiError == nil)
            return (collection, recorder)
        }

        /// Lets each store take in the other's commits, and waits until what that started is delivered.
        func exchange() async throws {
            for _ in 0..<2 {
                await client.store.checkForExternalChanges()
                await other.store.checkForExternalChanges()
                for _ in 0..<3 {
                    _ = try await client.store.read { _ in 0 }
                    _ = try await other.store.read { _ in 0 }
                }
            }
        }

        func close() async {
            collection.dispose()
            otherCollection.dispose()
            client.stopRealtime()
            await other.store.close()
            await client.store.close()
        }
    }

    @Test func aCollectionShowsAPendingMessageAnotherClientOnTheSameFileStoredOffline() async throws {
        let pair = try await Pair()
        pair.fixture.server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await pair.other.messages.send("from the extension", to: "general")
        }
        let event = try await pair.recorder.next { event in
            event.messages.contains { $0.text == "from the extension" }
        }
        #expect(event == .added(event.messages, MessageContext(sendingStatus: .pending, source: .cache)))
        let requestId = try #require(event.messages.first).clientRequestId
        try await pair.exchange()
        #expect(pair.collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(pair.collection.pendingMessages.first?.text == "from the extension")
        // Told once, and nothing else was reported: no row A lists changed.
        #expect(pair.recorder.log.all == [event])
        // B's own collection heard its own send once, as its own.
        #expect(pair.otherRecorder.log.all.filter { $0.messages.contains { $0.clientRequestId == requestId } }
            == [.added(event.messages, MessageContext(sendingStatus: .pending, source: .local))])
        await pair.close()
    }

    @Test func aCollectionHearsItsOwnSendOnceAndTheOtherClientHearsItFromTheCache() async throws {
        let pair = try await Pair()
        pair.fixture.server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await pair.client.messages.send("from the app", to: "general")
        }
        try await pair.exchange()
        let own = pair.recorder.log.all
        #expect(own.count == 1)
        #expect(own.first?.context == MessageContext(sendingStatus: .pending, source: .local))
        let requestId = try #require(own.first?.messages.first).clientRequestId
        #expect(pair.otherRecorder.log.all == [.added(own[0].messages, MessageContext(sendingStatus: .pending, source: .cache))])
        #expect(pair.otherCollection.pendingMessages.map(\.clientRequestId) == [requestId])
        await pair.close()
    }

    @Test(arguments: [false, true])
    func aRowAnotherClientChangedIsReportedAloneEvenWhenTheWholeTableChanged(wholeTable: Bool) async throws {
        let pair = try await Pair()
        let edited = try #require(pair.collection.succeededMessages.last)
        let untouched = pair.collection.succeededMessages.count
        #expect(untouched > 1)
        try await pair.other.store.write { transaction in
            if wholeTable {
                // Raw SQL: the change log names the table, not the row.
                try transaction.execute(
                    "UPDATE messages SET text = ? WHERE id = ?", [.text("edited elsewhere"), .text(edited.id)],
                    touching: Message.table.name)
            } else {
                var copy = edited
                copy.text = "edited elsewhere"
                try transaction.upsert(copy)
            }
        }
        try await pair.exchange()
        var expected = edited
        expected.text = "edited elsewhere"
        #expect(pair.recorder.log.all == [.updated([expected], MessageContext(sendingStatus: .succeeded, source: .cache))])
        #expect(pair.collection.succeededMessages.last?.text == "edited elsewhere")
        #expect(pair.collection.succeededMessages.count == untouched)
        await pair.close()
    }

    // Runs `LiveTestHelper` as a child process: macOS and Linux only.
    #if os(macOS) || os(Linux)
    @Test func aCollectionShowsAPendingMessageAnotherProcessOnTheSameFileStoredOffline() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(cache: .file(url))
        let collection = fixture.client.createMessageCollection(channelId: "general")
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        #expect(await collection.start().apiError == nil)
        let helper = try HelperProcess([
            "client-send-offline", url.path, folder.file("server.sqlite").path, "ada", "general", "from another process",
        ])
        #expect(await helper.exitStatus() == 0)
        let line = try #require(helper.allLines.first { $0.hasPrefix("pending ") })
        let requestId = String(line.dropFirst("pending ".count))
        // The other process's commit wakes the store; looking once more keeps the test
        // independent of when the wake-up comes.
        await fixture.client.store.checkForExternalChanges()
        let event = try await recorder.next { $0.messages.contains { $0.clientRequestId == requestId } }
        #expect(event.context == MessageContext(sendingStatus: .pending, source: .cache))
        await fixture.client.store.checkForExternalChanges()
        try await fixture.settle()
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.first?.text == "from another process")
        #expect(recorder.log.all == [event])
        collection.dispose()
        fixture.client.stopRealtime()
        await fixture.client.store.close()
    }
    #endif
}
