import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ChannelCollectionTests {
    @Test func theFirstPageShowsTheCacheThenTheServersChannelsMostRecentlyActiveFirst() async throws {
        let fixture = try await ClientFixture()
        let server = try await fixture.server.records(.channels())
        let first = fixture.client.createChannelCollection()
        #expect(!first.hasLoadedFromServer)
        #expect(try await first.loadMore().map(\.id) == server.map(\.id))
        #expect(first.hasLoadedFromServer)
        #expect(first.channels.map(\.id) == server.map(\.id))
        #expect(!first.hasMore)

        // A second list shows the cached channels before the server answers.
        fixture.server.setLatency(.seconds(1))
        let second = fixture.client.createChannelCollection()
        let snapshots = Deliveries<[Channel]>()
        let observer = second.snapshot.observeForever { snapshots.record($0 ?? []) }
        let load = Task { try await second.loadMore() }
        let cached = try await snapshots.next { !$0.isEmpty }
        #expect(cached.map(\.id) == server.map(\.id))
        #expect(!second.hasLoadedFromServer, "the cached page is shown before the server answers")
        // Two requests: the server's latest sequence, then the page.
        for _ in 0..<2 {
            await fixture.clock.waitForSleepers(1)
            fixture.clock.advance(by: .seconds(1))
        }
        #expect(try await load.value.map(\.id) == server.map(\.id))
        #expect(second.hasLoadedFromServer)
        second.snapshot.remove(observer: observer)
    }

    @Test func pagesUntilTheEndWithoutGapsOrRepeats() async throws {
        let fixture = try await ClientFixture()
        for index in 0..<7 {
            _ = try await fixture.server.createChannel(
                id: "extra-\(index)", displayName: "Extra \(index)", type: .community, memberIds: ["ada"])
        }
        let server = try await fixture.server.records(.channels())
        let collection = fixture.client.createChannelCollection(pageSize: 3)
        var pages: [[Channel]] = []
        while collection.hasMore { pages.append(try await collection.loadMore()) }
        #expect(pages.dropLast().allSatisfy { $0.count == 3 })
        #expect(pages.flatMap { $0 }.map(\.id) == server.map(\.id))
        #expect(collection.channels.map(\.id) == server.map(\.id))
        await #expect(throws: ChatError.noMorePages) { try await collection.loadMore() }
    }

    @Test func typesFilterTheList() async throws {
        let fixture = try await ClientFixture()
        let collection = fixture.client.createChannelCollection(types: [.community])
        let page = try await collection.loadMore()
        #expect(!page.isEmpty && page.allSatisfy { $0.type == .community })
        #expect(page.map(\.id) == (try await fixture.server.records(.channels(types: [.community]))).map(\.id))
    }

    @Test func realTimeChangesAreReportedAsEvents() async throws {
        let fixture = try await ClientFixture()
        let collection = fixture.client.createChannelCollection()
        let recorder = ChannelCollectionRecorder()
        collection.delegate = recorder
        try await collection.loadMore()
        let oldest = try #require(collection.channels.last)

        _ = try await fixture.server.perform(.sendText("news", channelId: oldest.id, clientRequestId: "c1"), as: "alan")
        let updated = try await recorder.log.next()
        #expect(updated == .updated([try #require(collection.channels.first)], ChannelContext(source: .event)))
        #expect(collection.channels.first?.id == oldest.id)
        #expect(collection.channels.first?.lastMessageText == "news")

        _ = try await fixture.server.createChannel(id: "fresh", displayName: "Fresh", type: .conversation, memberIds: ["ada"])
        let added = try await recorder.log.next { if case .added = $0 { true } else { false } }
        // Creating the channel and adding its member are two events (member count 0, then 1): the
        // collection may already hold the second version, so the added one is checked by id.
        guard case .added(let addedChannels, let addedContext) = added else { return }
        #expect(addedChannels.map(\.id) == ["fresh"])
        #expect(addedContext == ChannelContext(source: .event))
        #expect(collection.channels.contains { $0.id == "fresh" })
        let joined = try await recorder.log.next { entry in
            if case .updated(let channels, _) = entry { channels.contains { $0.id == "fresh" } } else { false }
        }
        #expect(joined == .updated([try #require(collection.channels.first { $0.id == "fresh" })], ChannelContext(source: .event)))
        #expect(collection.channels.first { $0.id == "fresh" }?.memberCount == 1)

        try await fixture.server.deleteChannel("fresh")
        let deleted = try await recorder.log.next { if case .deleted = $0 { true } else { false } }
        #expect(deleted == .deleted(["fresh"], ChannelContext(source: .event)))
        #expect(!collection.channels.contains { $0.id == "fresh" })
    }

    @Test func aReconnectionCatchesUpWithTheChangeLog() async throws {
        let fixture = try await ClientFixture()
        let collection = fixture.client.createChannelCollection()
        let recorder = ChannelCollectionRecorder()
        collection.delegate = recorder
        try await collection.loadMore()
        let quiet = try #require(collection.channels.last)
        let doomed = try #require(collection.channels.first { $0.id != quiet.id })

        fixture.server.disconnect()
        try await fixture.settle()
        _ = try await fixture.server.perform(.sendText("while away", channelId: quiet.id, clientRequestId: "w1"), as: "alan")
        try await fixture.server.deleteChannel(doomed.id)
        #expect(recorder.log.all.isEmpty)
        fixture.server.reconnect()

        let updated = try await recorder.log.next { if case .updated = $0 { true } else { false } }
        guard case .updated(let channels, let context) = updated else { return }
        #expect(context.source == .changelog)
        #expect(channels.map(\.id) == [quiet.id])
        #expect(collection.channels.first?.lastMessageText == "while away")
        let deleted = try await recorder.log.next { if case .deleted = $0 { true } else { false } }
        #expect(deleted == .deleted([doomed.id], ChannelContext(source: .changelog)))
        #expect(collection.channels.map(\.id) == (try await fixture.server.records(.channels())).map(\.id))
    }

    @Test func aCatchUpTheServerFailsIsRetriedAfterAWaitWhileTheConnectionStaysUp() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let clock = ManualClock()
        let (api, client) = try await retryingClient(of: fixture.server, clock: clock)
        let collection = client.createChannelCollection()
        try await collection.loadMore()
        let quiet = try #require(collection.channels.last)
        api.send(.disconnected)
        try await waitUntilHolds { !client.isConnected }
        _ = try await fixture.server.perform(.sendText("while away", channelId: quiet.id, clientRequestId: "w1"), as: "alan")

        // The server fails the collection's change log; the event stream stays up.
        api.failNextCollectionLogs(1)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(499))
        try await settle(client)
        #expect(api.collectionLogRequests == 1, "the retry waits half a second")
        #expect(collection.channels.first?.lastMessageText != "while away")
        clock.advance(by: .milliseconds(1))
        try await waitUntilHolds { collection.channels.first?.lastMessageText == "while away" }
        #expect(collection.channels.first?.id == quiet.id)
        #expect(api.collectionLogRequests == 2)
        try await settle(client)
        #expect(clock.sleeperCount == 0)

        // Disposing ends a wait under way.
        api.send(.disconnected)
        try await waitUntilHolds { !client.isConnected }
        api.failNextCollectionLogs(1)
        api.send(.connected)
        try await waitUntilHolds { clock.sleeperCount == 1 }
        collection.dispose()
        try await waitUntilHolds { clock.sleeperCount == 0 }
        #expect(api.collectionLogRequests == 3)
    }

    @Test func aServerFailureKeepsTheCachedPage() async throws {
        let fixture = try await ClientFixture()
        try await fixture.client.createChannelCollection().loadMore()
        fixture.server.failNextRequests(1)
        let collection = fixture.client.createChannelCollection()
        let page = try await collection.loadMore()
        #expect(page.map(\.id) == (try await fixture.server.records(.channels())).map(\.id))
        #expect(collection.hasMore)
        #expect(!collection.hasLoadedFromServer, "the page came from the cache")

        let empty = try await ClientFixture()
        empty.server.failNextRequests(1)
        await #expect(throws: SocialAPIError.self) { try await empty.client.createChannelCollection().loadMore() }
    }

    // A page the server answered before a live change, and that reaches the client after it, does
    // not undo the change: the changed channel keeps its newer copy and its place, in the list and
    // in the cache (issue 24).
    @Test func aPageDoesNotUndoAChangeThatArrivedWhileItWasOnItsWay() async throws {
        let fixture = try await ClientFixture()
        let (client, gate) = try fixture.gatedClient()
        let server = try await fixture.server.records(.channels())
        #expect(server.count >= 3)
        let collection = client.createChannelCollection(pageSize: server.count - 1)
        let recorder = ChannelCollectionRecorder()
        collection.delegate = recorder
        try await collection.loadMore()
        let target = try #require(server.last)
        #expect(!collection.channels.contains { $0.id == target.id }, "the oldest channel is on the second page")

        await gate.close()
        let page = Task { try await collection.loadMore() }
        await gate.waitUntilHolding(1)
        _ = try await fixture.server.perform(.sendText("news", channelId: target.id, clientRequestId: "n1"), as: "alan")
        _ = try await recorder.log.next { entry in
            if case .added(let channels, _) = entry { channels.contains { $0.id == target.id } } else { false }
        }
        #expect(collection.channels.first?.id == target.id)
        await gate.open()
        _ = try await page.value

        let now = try await fixture.server.records(.channels())
        let fresh = try #require(now.first)
        #expect(fresh.id == target.id && fresh.lastMessageText == "news")
        #expect(collection.channels.map(\.id) == now.map(\.id), "the list keeps the change and the server's order")
        #expect(collection.channels.first == fresh)
        #expect(collection.snapshot.data == collection.channels)
        let cached = try await client.store.read { try Channel.read(id: target.id, from: $0) }
        #expect(cached == fresh, "the cache keeps the copy the change stored")
    }

    // A change to a channel beyond the loaded part, made while the page that reaches it loads, is
    // not reported at once; the page's older copy does not replace it: the newer copy joins the
    // list, reported as added, and stays in the cache.
    @Test func aChannelChangedWhileThePageThatReachesItLoadsJoinsWithItsNewerCopy() async throws {
        let fixture = try await ClientFixture()
        let (client, gate) = try fixture.gatedClient()
        let server = try await fixture.server.records(.channels())
        let collection = client.createChannelCollection(pageSize: server.count - 1)
        let recorder = ChannelCollectionRecorder()
        collection.delegate = recorder
        try await collection.loadMore()
        let target = try #require(server.last)

        await gate.close()
        let page = Task { try await collection.loadMore() }
        await gate.waitUntilHolding(1)
        _ = try await fixture.server.perform(.leaveChannel(id: target.id), as: "alan")
        let changed = try #require(try await fixture.server.record(Channel.self, id: target.id))
        #expect(changed.memberCount == target.memberCount - 1 && changed.lastActivityAt == target.lastActivityAt)
        let cachedObject = LiveObject<Channel>(store: client.store, id: target.id, fetch: nil)
        let (cacheLog, token) = cachedObject.record()
        _ = try await cachedObject.next(in: cacheLog) { $0.snapshot == changed }
        #expect(recorder.log.all.isEmpty, "beyond the loaded part, the change is not reported yet")
        await gate.open()

        #expect(try await page.value == [changed])
        #expect(collection.channels.map(\.id) == server.map(\.id))
        #expect(collection.channels.last == changed)
        #expect(recorder.log.all == [.added([changed], ChannelContext(source: .event))])
        let cached = try await client.store.read { try Channel.read(id: target.id, from: $0) }
        #expect(cached == changed, "the cache keeps the copy the change stored")
        withExtendedLifetime((cachedObject, token)) {}
    }

    // A channel's creation event, sent before ada's membership made her a member and the server
    // read the first page, reaches the client while the page is on its way: late, so older than
    // the page, which keeps the channel (under the thread sanitizer in CI, the page came back
    // without the channels whose creation events were late this way).
    @Test func anEventOlderThanThePageDoesNotOverrideIt() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let (api, client) = try await retryingClient(of: fixture.server, clock: ManualClock())
        let before = try await fixture.server.latestSequence()
        _ = try await fixture.server.createChannel(id: "fresh", displayName: "Fresh", type: .community, memberIds: ["ada"])
        let fresh = try #require(try await fixture.server.record(Channel.self, id: "fresh"))
        #expect(fresh.memberCount == 1)
        #expect(try await fixture.server.records(.channels()).first == fresh, "the newest channel heads the first page")
        // The creation is the first change of the channel's write, before ada joined.
        let creation = try await fixture.server.connection(userId: "ada").changes(since: before, limit: 1).latestSequence
        #expect(try await creation < fixture.server.latestSequence())
        let asCreated = Channel(id: "fresh", displayName: "Fresh", type: .community, lastActivityAt: fresh.createdAt,
                                createdAt: fresh.createdAt, updatedAt: fresh.createdAt)

        let collection = client.createChannelCollection(pageSize: 1)
        let page = try await loadMore(collection, of: client, through: api) {
            (.created(.channel(asCreated), sequence: creation), creation)
        }

        #expect(page == [fresh])
        #expect(collection.channels == [fresh])
        #expect(collection.snapshot.data == [fresh])
    }

    // The same on a later page: a late event of a channel the server has deleted since does not
    // bring it back into the list.
    @Test func anEventOlderThanALaterPageDoesNotBringBackAChannelThePageDropped() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let (api, client) = try await retryingClient(of: fixture.server, clock: ManualClock())
        let server = try await fixture.server.records(.channels())
        let collection = client.createChannelCollection(pageSize: server.count - 1)
        try await collection.loadMore()
        let target = try #require(server.last)
        #expect(!collection.channels.contains { $0.id == target.id }, "the oldest channel is on the second page")
        _ = try await fixture.server.perform(.leaveChannel(id: target.id), as: "alan")
        let left = try #require(try await fixture.server.record(Channel.self, id: target.id))
        let leaving = try await fixture.server.latestSequence()
        try await fixture.server.deleteChannel(target.id)

        let page = try await loadMore(collection, of: client, through: api) {
            (.updated(.channel(left), sequence: leaving), leaving)
        }

        #expect(page.isEmpty)
        #expect(collection.channels.map(\.id) == (try await fixture.server.records(.channels())).map(\.id))
        #expect(!collection.channels.contains { $0.id == target.id })
    }

    // A change the server made after it read the page, whose event reaches the client while the
    // page is on its way, is newer than the page and wins: a channel deleted then is not brought
    // back by the page, in the list or in the cache.
    @Test func anEventNewerThanThePageStillWinsOverIt() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let (api, client) = try await retryingClient(of: fixture.server, clock: ManualClock())
        let server = try await fixture.server.records(.channels())
        let target = try #require(server.first)
        let collection = client.createChannelCollection()

        var deleted: Channel?
        let returned = try await loadMore(collection, of: client, through: api) {
            try await fixture.server.deleteChannel(target.id)
            let copy = try #require(try await fixture.server.record(Channel.self, id: target.id))
            deleted = copy
            let deletion = try await fixture.server.latestSequence()
            return (.updated(.channel(copy), sequence: deletion), deletion)
        }

        #expect(returned.map(\.id) == server.dropFirst().map(\.id), "the deletion came after the server read the page")
        #expect(collection.channels.map(\.id) == server.dropFirst().map(\.id))
        let cached = try await client.store.read { try Channel.read(id: target.id, from: $0) }
        let deletedCopy = try #require(deleted)
        #expect(cached == deletedCopy, "the cache keeps the copy the deletion stored")
    }

    /// Loads `collection`'s next page through `api`, holding the server's answer while `meanwhile`
    /// runs and the real-time event it returns reaches `client` (its sequence number given apart,
    /// to wait for); returns the page.
    private func loadMore(
        _ collection: ChannelCollection, of client: SocialClient, through api: CatchUpGateAPI,
        meanwhile: () async throws -> (event: SocialEvent, sequence: Int64)
    ) async throws -> [Channel] {
        api.holdNextPage()
        let page = Task { try await collection.loadMore() }
        try await waitUntilHolds { api.hasHeldPage }
        let (event, sequence) = try await meanwhile()
        api.send(event)
        try await waitUntilHolds { client.lastEventSequence == sequence }
        api.releasePage()
        return try await page.value
    }

    // A channel deleted while the app was closed shows in a page read from the cache while the
    // server fails; the server's next page drops it from the list and from the cache (issue 24).
    @Test func aServerPageAfterACachedPageDropsTheChannelsTheServerNoLongerLists() async throws {
        let fixture = try await ClientFixture(realtime: false)
        try await fixture.client.createChannelCollection().loadMore()
        let before = try await fixture.server.records(.channels())
        #expect(before.count >= 3)
        let doomed = before[1]
        try await fixture.server.deleteChannel(doomed.id)

        let collection = fixture.client.createChannelCollection()
        fixture.server.failNextRequests(1)
        #expect(try await collection.loadMore().map(\.id) == before.map(\.id), "the cached page")
        #expect(!collection.hasLoadedFromServer)
        let page = try await collection.loadMore()
        let after = try await fixture.server.records(.channels())
        #expect(!after.contains { $0.id == doomed.id })
        #expect(page.map(\.id) == after.map(\.id))
        #expect(collection.hasLoadedFromServer)
        #expect(collection.channels.map(\.id) == after.map(\.id))
        #expect(collection.snapshot.data?.map(\.id) == after.map(\.id))
        let query = SocialQuery<Channel>.channels().cacheQuery
        let cached = try await fixture.client.store.read { try Channel.read(query, after: nil, limit: 1_000, from: $0) }
        #expect(cached.map(\.id) == after.map(\.id), "the cache no longer lists the deleted channel")
    }

    @Test func theCompletionHandlerAndEventsMirrorTheAsyncCallsAndTheDelegate() async throws {
        let fixture = try await ClientFixture()
        let collection = fixture.client.createChannelCollection(pageSize: 2)
        let recorder = ChannelCollectionRecorder()
        collection.delegate = recorder
        let events = Deliveries<ChannelCollectionEvent>()
        let observer = collection.events.observeForever { if let event = $0 { events.record(event) } }
        let pages = Deliveries<[Channel]>()
        collection.loadMore { channels, error in
            #expect(error == nil)
            pages.record(channels ?? [])
        }
        let page = try await pages.next()
        #expect(page.map(\.id) == Array((try await fixture.server.records(.channels())).prefix(2)).map(\.id))
        #expect(collection.channels.map(\.id) == page.map(\.id))

        let top = try #require(collection.channels.first)
        _ = try await fixture.server.perform(.sendText("ping", channelId: top.id, clientRequestId: "p1"), as: "alan")
        let heard = try await recorder.log.next()
        #expect(try await events.next() == heard)

        collection.dispose()
        let refused = Deliveries<(any Error)?>()
        collection.loadMore { _, error in refused.record(error) }
        #expect(try await refused.next() as? ChatError == .disposed)
        collection.events.remove(observer: observer)
    }

    @Test func aDisposedCollectionIsSilentAndReleased() async throws {
        let fixture = try await ClientFixture()
        var collection: ChannelCollection? = fixture.client.createChannelCollection()
        let recorder = ChannelCollectionRecorder()
        collection?.delegate = recorder
        try await collection?.loadMore()
        weak let released = collection
        collection?.dispose()
        collection?.dispose()
        await #expect(throws: ChatError.disposed) { try await collection?.loadMore() }
        collection = nil
        _ = try await fixture.server.perform(.sendText("after", channelId: "general", clientRequestId: "a1"), as: "alan")
        try await fixture.settle()
        #expect(released == nil)
        #expect(recorder.log.all.isEmpty)
    }
}

/// Records a channel collection's delegate calls as events.
@MainActor
private final class ChannelCollectionRecorder: ChannelCollectionDelegate {
    let log = Deliveries<ChannelCollectionEvent>()

    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, addedChannels: [Channel]) {
        log.record(.added(addedChannels, context))
    }

    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, updatedChannels: [Channel]) {
        log.record(.updated(updatedChannels, context))
    }

    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, deletedChannelIds: [String]) {
        log.record(.deleted(deletedChannelIds, context))
    }
}
