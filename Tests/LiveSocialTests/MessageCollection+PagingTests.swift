import LiveData
import LiveRepository
@_spi(Testing) import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Paging a message collection back and forth: from the cache, then the server, with the cache as
/// fallback, and the refusals.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageCollectionPagingTests {
    // MARK: Paging

    @Test func pagesBackToTheOldestMessageWithoutGapsOrRepeats() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let opened = try await fixture.open(channelId)
        let collection = opened.collection
        #expect(collection.succeededMessages == Array(all[80..<100]))
        var pages: [[Message]] = []
        while collection.hasPrevious {
            let page = try await collection.loadPrevious()
            pages.append(page)
            #expect(collection.hasPrevious == (pages.count < 4), "false with the page that reaches the oldest message")
        }
        #expect(pages == [Array(all[60..<80]), Array(all[40..<60]), Array(all[20..<40]), Array(all[0..<20])])
        #expect(collection.succeededMessages == all)
        #expect(collection.snapshot.data?.succeededMessages == all)
        await #expect(throws: ChatError.noMorePages) { try await collection.loadPrevious() }
        await #expect(throws: ChatError.noMorePages) { try await collection.loadNext() }
        #expect(opened.recorder.log.all.isEmpty, "pages are answered through their results, not the delegate")
    }

    @Test func pagesForwardToTheNewestMessageThenAddsNewOnes() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let opened = try await fixture.open(channelId, at: all[0].createdAt - 1)
        let collection = opened.collection
        #expect(collection.succeededMessages == Array(all[0..<20]))
        var pages: [[Message]] = []
        while collection.hasNext {
            pages.append(try await collection.loadNext())
            #expect(collection.hasNext == (pages.count < 4), "false with the page that reaches the newest message")
        }
        #expect(pages == [Array(all[20..<40]), Array(all[40..<60]), Array(all[60..<80]), Array(all[80..<100])])
        #expect(collection.succeededMessages == all)
        #expect(!collection.hasPrevious)
        await #expect(throws: ChatError.noMorePages) { try await collection.loadNext() }

        // At the end, new messages join by themselves.
        let sent = try await fixture.sendAsOther("at the end", to: channelId)
        let added = try await opened.recorder.next { $0.isAdded(source: .event) }
        #expect(added.messages == [sent])
        #expect(collection.succeededMessages == all + [sent])
    }

    @Test func pagesBothWaysFromTheMiddleUntilTheWholeHistoryIsListed() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let params = MessageListParams(isInclusive: true, previousResultSize: 7, nextResultSize: 9)
        let opened = try await fixture.open(channelId, at: all[50].createdAt, params: params)
        let collection = opened.collection
        #expect(collection.succeededMessages == Array(all[43..<59]))
        var older: [[Message]] = []
        var newer: [[Message]] = []
        while collection.hasPrevious || collection.hasNext {
            if collection.hasPrevious { older.append(try await collection.loadPrevious()) }
            if collection.hasNext { newer.append(try await collection.loadNext()) }
            let ids = collection.succeededMessages.map(\.id)
            #expect(Set(ids).count == ids.count, "no repeats")
            let ordered = collection.succeededMessages.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            #expect(collection.succeededMessages == ordered, "in order")
        }
        #expect(older.dropLast().allSatisfy { $0.count == 7 } && newer.dropLast().allSatisfy { $0.count == 9 })
        #expect(older.reversed().flatMap { $0 } == Array(all[0..<43]))
        #expect(newer.flatMap { $0 } == Array(all[59..<100]))
        #expect(collection.succeededMessages == all)
    }

    @Test func pagingIsRefusedBeforeTheStartFinishedAndWhileAPageLoads() async throws {
        let fixture = try await ClientFixture()
        let all = try await fixture.serverMessages("general")
        let collection = fixture.client.createMessageCollection(channelId: "general")
        await #expect(throws: ChatError.notStarted) { try await collection.loadPrevious() }
        await #expect(throws: ChatError.notStarted) { try await collection.loadNext() }

        // Started, but the server has not answered yet.
        fixture.server.setLatency(.seconds(1))
        let handlers = Deliveries<String>()
        collection.startCollection(
            cacheResultHandler: { _, error in handlers.record("cache \(error.map { "\($0)" } ?? "ok")") },
            apiResultHandler: { _, error in handlers.record("api \(error.map { "\($0)" } ?? "ok")") })
        #expect(try await handlers.next() == "cache ok")
        await #expect(throws: ChatError.notStarted) { try await collection.loadPrevious() }
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        #expect(try await handlers.next() == "api ok")

        let again = await collection.start()
        #expect(again.cacheError as? ChatError == .alreadyStarted)
        #expect(again.apiError as? ChatError == .alreadyStarted)

        // A page in flight.
        fixture.server.setLatency(.seconds(1))
        let first = Task { try await collection.loadPrevious() }
        await fixture.clock.waitForSleepers(1)
        await #expect(throws: ChatError.loadInProgress) { try await collection.loadPrevious() }
        await #expect(throws: ChatError.noMorePages) { try await collection.loadNext() }
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        #expect(try await first.value == Array(all.dropLast(20).suffix(20)))
        #expect(collection.succeededMessages == Array(all.suffix(40)))
    }

    @Test func completionHandlersReceiveThePagesAndTheErrors() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 30)
        let params = MessageListParams(isInclusive: true, previousResultSize: 10, nextResultSize: 10)
        let collection = try await fixture.open(channelId, at: all[15].createdAt, params: params).collection
        #expect(collection.succeededMessages == Array(all[5..<25]))
        let older = await collection.loadPreviousWithHandler()
        #expect(older.messages == Array(all[0..<5]))
        #expect(older.error == nil)
        let newer = await collection.loadNextWithHandler()
        #expect(newer.messages == Array(all[25..<30]))
        #expect(newer.error == nil)
        let noOlder = await collection.loadPreviousWithHandler()
        #expect(noOlder.messages == nil)
        #expect(noOlder.error as? ChatError == .noMorePages)
        let noNewer = await collection.loadNextWithHandler()
        #expect(noNewer.error as? ChatError == .noMorePages)

        let unstarted = fixture.client.createMessageCollection(channelId: channelId)
        #expect(await unstarted.loadPreviousWithHandler().error as? ChatError == .notStarted)
        unstarted.dispose()
        #expect(await unstarted.loadNextWithHandler().error as? ChatError == .disposed)
    }

    @Test func aPageShowsItsCachedMessagesBeforeTheServerAnswers() async throws {
        let fixture = try await ClientFixture()
        let all = try await fixture.serverMessages("general")
        let warm = try await fixture.open("general").collection
        while warm.hasPrevious { try await warm.loadPrevious() }
        warm.dispose()

        let opened = try await fixture.open("general")
        let snapshots = Deliveries<MessageCollectionSnapshot>()
        let observer = opened.collection.snapshot.observeForever { if let value = $0 { snapshots.record(value) } }
        fixture.server.setLatency(.seconds(1))
        let page = Task { try await opened.collection.loadPrevious() }
        let cached = try await snapshots.next()
        #expect(cached.succeededMessages == Array(all.suffix(40)), "the cached page joins the list at once")
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        #expect(try await page.value == Array(all.dropLast(20).suffix(20)))
        #expect(opened.collection.succeededMessages == Array(all.suffix(40)))
        opened.collection.snapshot.remove(observer: observer)
    }

    @Test func whenTheServerFailsAPageFallsBackToTheCacheOrThrows() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let warm = try await fixture.open(channelId).collection
        try await warm.loadPrevious()
        warm.dispose()

        let opened = try await fixture.open(channelId)
        fixture.server.failNextRequests(1)
        #expect(try await opened.collection.loadPrevious() == Array(all[60..<80]))
        #expect(opened.collection.hasPrevious, "a page from the cache proves nothing about the end")

        // Nothing older is cached: the server's error comes through, and a retry works.
        try await fixture.client.store.write { try $0.delete(Message.self, id: all[59].id) }
        fixture.server.failNextRequests(1)
        await #expect(throws: SocialAPIError.serverFailure("simulated server failure")) {
            try await opened.collection.loadPrevious()
        }
        #expect(opened.collection.succeededMessages == Array(all[60..<100]))
        #expect(opened.collection.hasPrevious)
        #expect(try await opened.collection.loadPrevious() == Array(all[40..<60]))
        #expect(opened.collection.succeededMessages == Array(all[40..<100]))
    }

    // Found by MessageCollectionModelTests (seed 5 of a long run): a page the cache answered
    // while offline skipped the messages the cache never had, and nothing filled the gap once the
    // connection came back (the change log holds changes, not messages that were already there).
    @Test func aPageFromTheCacheOfflineIsReplacedByTheServersOnceTheConnectionComesBack() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 30)
        try await waitUntilConnected(fixture.client)
        // The cache gets the oldest 21 messages (20 and the peek), then the newest 6 (5 and the
        // peek), but not the 3 between.
        let oldest = try await fixture.open(
            channelId, at: all[0].createdAt - 1, params: MessageListParams(previousResultSize: 5, nextResultSize: 20))
        oldest.collection.dispose()
        let opened = try await fixture.open(channelId, params: MessageListParams(previousResultSize: 5))
        let collection = opened.collection
        #expect(collection.succeededMessages == Array(all[25 ..< 30]))

        fixture.server.disconnect()
        while fixture.client.isConnected { await Task.yield() }
        let cachedPage = Array(all[17 ... 20]) + [all[24]]
        #expect(try await collection.loadPrevious() == cachedPage, "the cache's page, with a gap")

        fixture.server.reconnect()
        try await waitUntilConnected(fixture.client)
        while collection.hasWorkUnderWay { await Task.yield() }
        #expect(collection.succeededMessages == Array(all[25 ..< 30]), "the server's messages, without the gap")
        #expect(collection.hasPrevious)
        let deleted = opened.recorder.log.all.filter { event in
            if case .deleted = event { event.context == MessageContext(sendingStatus: .succeeded, source: .api) } else { false }
        }
        #expect(deleted.flatMap(\.messages) == cachedPage)
        try await collection.loadPrevious()
        #expect(collection.succeededMessages == Array(all[20 ..< 30]))
    }
}
