import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Pending messages across a restart, and the order of messages sent in a row.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageSendingRestartTests {
    // MARK: Restart

    @Test func aPendingMessageSurvivesARestartAndIsSentOnceWhenConnected() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        // The first run: written while the server is unreachable, then the app quits.
        let (firstCollection, firstRecorder, _) = try await openCollection(fixture.client)
        server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("written before quitting", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: firstRecorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()
        #expect(firstCollection.pendingMessages.map(\.clientRequestId) == [requestId])
        firstCollection.dispose()
        fixture.client.stopRealtime()
        await fixture.client.store.close()

        // The second run, still offline.
        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        let cached = try await cachedCopies(of: requestId, in: client)
        #expect(cached.map(\.id) == [requestId])
        #expect(cached.first?.syncState == .syncing)
        let (collection, recorder, start) = try await openCollection(client)
        #expect((start.apiError as? SocialAPIError) == .offline)
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.first?.text == "written before quitting")

        // Connected: the collection's first request and the resend go out together.
        server.setLatency(.seconds(1))
        client.startRealtime()
        server.reconnect()
        await fixture.clock.waitForSleepers(2)
        fixture.clock.advance(by: .seconds(1))
        let (sent, _) = try await next(.updated, .succeeded, of: requestId, in: recorder)
        // Then the collection's pages.
        await fixture.clock.waitForSleepers(3)
        fixture.clock.advance(by: .seconds(1))
        server.setLatency(.zero)
        try await settle(client, rounds: 8)

        #expect(steps(of: requestId, in: recorder) == ["updated succeeded"])
        #expect(try await serverCopies(of: requestId, on: server).map(\.id) == [sent.id])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: client).map(\.id) == [sent.id])
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
    }

    @Test func pendingMessagesOfAnEarlierRunAreSentBeforeNewOnes() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server
        server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("older one", to: "general")
        }
        // The queue waits for the connection now: this send is stored as pending, then waits
        // (see aSecondSendWhileTheServerIsUnreachableThrowsOfflineToo).
        Task { _ = try? await fixture.client.messages.send("older two", to: "general") }
        try await fixture.settle()
        let stored = try await fixture.client.store.read { connection in
            try Message.read(CacheQuery<Message>([.equals("syncState", .text(SyncState.syncing.rawValue))],
                                                 orderBy: "createdAt"), from: connection)
        }
        #expect(stored.map(\.text) == ["older one", "older two"])
        await fixture.client.store.close()

        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        client.startRealtime()
        let newer = Task { try await client.messages.send("newer", to: "general") }
        // Let it reach the queue before anything else is written
        // (see twoMessagesWrittenOneAfterTheOtherOnAFreshClientAreSentInThatOrder).
        try await settle(client)
        server.reconnect()
        try await waitForConnection(client, connected: true)
        // Messages go one at a time in order: once this one is sent, everything before it went.
        let barrier = try await client.messages.send("barrier", to: "general")
        _ = await newer.result

        let texts = ["older one", "older two", "newer", "barrier"]
        let onServer = try await server.records(.messages(channelId: "general", newestFirst: false))
            .filter { $0.userId == "ada" && texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        #expect(onServer.last?.id == barrier.id)
        let pendingLeft = try await client.store.read { connection in
            try Message.read(CacheQuery<Message>([.equals("syncState", .text(SyncState.syncing.rawValue))],
                                                 orderBy: "createdAt"), from: connection)
        }
        #expect(pendingLeft.isEmpty)
        client.stopRealtime()
        await client.store.close()
    }

    @Test func twoMessagesWrittenOneAfterTheOtherOnAFreshClientAreSentInThatOrder() async throws {
        let fixture = try await ClientFixture()
        try await waitForConnection(fixture.client, connected: true)
        let first = Task { try await fixture.client.messages.send("written first", to: "general") }
        let second = Task { try await fixture.client.messages.send("written second", to: "general") }
        let (firstSent, secondSent) = (try await first.value, try await second.value)
        let texts = ["written first", "written second"]
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        #expect(onServer.map(\.id) == [firstSent.id, secondSent.id])
    }

    @Test func messagesWrittenInARowWhileTheCacheIsReadAreStoredPendingInThatOrder() async throws {
        // No connection yet, so the outbox reads the earlier run's pending messages on the first
        // send: all three sends wait for that read, and the runtime resumes such waiters in no
        // promised order (last first, in practice).
        let fixture = try await ClientFixture(realtime: false)
        let (collection, recorder, _) = try await openCollection(fixture.client)
        let texts = ["one", "two", "three"]
        let sends = texts.map { text in Task { try await fixture.client.messages.send(text, to: "general") } }
        for send in sends { _ = try await send.value }

        // Each pending copy is written, so shown, in the order written: a list that shows what
        // is new (a log, a terminal) shows them in that order.
        let addedPending = recorder.log.all.compactMap { event -> [String]? in
            guard case .added = event, event.context?.sendingStatus == .pending else { return nil }
            return event.messages.map(\.text)
        }.flatMap { $0 }
        #expect(addedPending == texts)
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        collection.dispose()
    }

    @Test func messagesSentInARowKeepTheirOrderWhenTheClockGoesBack() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false)
        let server = fixture.server
        let clock = FallingClock()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { clock.next() })
        let (collection, _, _) = try await openCollection(client)
        server.disconnect()
        let texts = ["one", "two", "three"]
        for text in texts {
            await #expect(throws: SocialAPIError.offline) { try await client.messages.send(text, to: "general") }
        }
        // Shown pending in the order sent, although each was written at an earlier clock time.
        #expect(collection.pendingMessages.map(\.text) == texts)
        collection.dispose()
        await client.store.close()

        // The next run sends them in that order too.
        let next = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                    now: { clock.next() })
        server.reconnect()
        let barrier = try await next.messages.send("barrier", to: "general")
        let onServer = try await server.records(.messages(channelId: "general", newestFirst: false))
            .filter { $0.userId == "ada" && (texts + ["barrier"]).contains($0.text) }
        #expect(onServer.map(\.text) == texts + ["barrier"])
        #expect(onServer.last?.id == barrier.id)
        await next.store.close()
    }

    @Test func aRestartAfterALostAnswerNeverShowsTheMessageTwice() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        // The first run: the server stores the message but its answer is lost; the app quits.
        let (firstCollection, firstRecorder, _) = try await openCollection(fixture.client)
        server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("stored before quitting", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: firstRecorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()
        let stored = try await serverCopies(of: requestId, on: server)
        #expect(stored.count == 1)
        firstCollection.dispose()
        await fixture.client.store.close()

        // The second run opens the chat: the server's page has the message the cache has as pending.
        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        let (collection, recorder, start) = try await openCollection(client)
        #expect(start.apiError == nil)
        let shown = (collection.succeededMessages + collection.pendingMessages + collection.failedMessages)
            .filter { $0.clientRequestId == requestId }
        #expect(shown.count == 1, "shown as \(shown.map(\.sendingStatus))")

        // Connected: the pending copy is sent again and the server answers with what it has.
        client.startRealtime()
        try await waitForConnection(client, connected: true)
        _ = try await client.messages.send("barrier", to: "general")
        try await settle(client)
        #expect(try await serverCopies(of: requestId, on: server).map(\.id) == stored.map(\.id))
        let finallyShown = (collection.succeededMessages + collection.pendingMessages + collection.failedMessages)
            .filter { $0.clientRequestId == requestId }
        #expect(finallyShown.map(\.id) == stored.map(\.id))
        #expect(!steps(of: requestId, in: recorder).contains("added succeeded"))
        #expect(try await cachedCopies(of: requestId, in: client).map(\.id) == stored.map(\.id))
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
    }
}
