import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// How a message collection stays in step with the server: its start replacing stale cached
/// rows, real-time events, catching up after the connection comes back, and changes that arrive
/// while the server answers. The helpers both files use are at the bottom of this one.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageCollectionSyncTests {
    // MARK: Replacing the cache

    @Test func staleCachedRowsAreShownFirstThenReplacedByTheServersAndTheCacheIsCorrected() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let warm = try await fixture.open("general").collection
        warm.dispose()

        // The server changes while the client is not listening.
        fixture.client.stopRealtime()
        let deleted = before[before.count - 3]
        let edited = before[before.count - 5]
        try await fixture.server.perform(.deleteMessage(id: deleted.id), as: deleted.userId)
        try await fixture.server.perform(.editMessage(id: edited.id, text: "edited while away"), as: edited.userId)
        let added = try await fixture.sendAsOther("sent while away", as: "grace")
        let truth = try await fixture.serverMessages("general")

        let opened = try await fixture.open("general")
        #expect(opened.result.cached == Array(before.suffix(20)), "the cache shows its stale copy first")
        #expect(opened.result.api == Array(truth.suffix(20)), "then the server's truth")
        #expect(opened.collection.succeededMessages == Array(truth.suffix(20)))
        #expect(opened.recorder.log.all.isEmpty, "the start is answered through its handlers")

        let cachedDeleted = try await fixture.cachedMessage(deleted.id)
        #expect(cachedDeleted == nil || cachedDeleted?.isDeleted == true)
        #expect(try await fixture.cachedMessage(edited.id)?.text == "edited while away")
        #expect(try await fixture.cachedMessage(added.id) == added)
        let cachedList = try await fixture.client.store.read {
            try Message.read(SocialQuery<Message>.messages(channelId: "general", newestFirst: false).cacheQuery, from: $0)
        }
        #expect(Array(cachedList.suffix(20)) == Array(truth.suffix(20)))

        let third = try await fixture.open("general")
        #expect(third.result.cached == Array(truth.suffix(20)), "the next start shows the corrected cache")
    }

    // MARK: Real time

    @Test func anotherUsersMessageIsAddedAsAnEventAtTheEnd() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let opened = try await fixture.open("general")
        let sent = try await fixture.sendAsOther("hello live")
        let added = try await opened.recorder.next { _ in true }
        #expect(added == .added([sent], MessageContext(sendingStatus: .succeeded, source: .event)))
        let channelUpdate = try await opened.recorder.next { _ in true }
        let channel = try #require(try await fixture.server.record(Channel.self, id: "general"))
        #expect(channelUpdate == .channelUpdated(channel, ChannelContext(source: .event)))
        #expect(channel.lastMessageText == "hello live")
        #expect(opened.collection.channel == channel)
        #expect(opened.collection.succeededMessages == Array(before.suffix(20)) + [sent])
        try await fixture.settle()
        #expect(opened.recorder.log.all == [added, channelUpdate])
    }

    @Test func aCollectionOpenedInThePastAddsNewMessagesOnlyOnceItReachesTheEnd() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 50)
        let opened = try await fixture.open(channelId, at: all[10].createdAt, params: MessageListParams(isInclusive: true))
        let collection = opened.collection
        #expect(collection.succeededMessages == Array(all[0..<30]))
        #expect(collection.hasNext)

        let early = try await fixture.sendAsOther("too early to show", to: channelId)
        // The channel's update follows the message's: once it is reported, the message was seen.
        _ = try await opened.recorder.next { $0.isChannelUpdated }
        #expect(opened.recorder.addedMessages.isEmpty)
        #expect(collection.succeededMessages == Array(all[0..<30]))

        #expect(try await collection.loadNext() == Array(all[30..<50]))
        #expect(collection.hasNext)
        #expect(try await collection.loadNext() == [early])
        #expect(!collection.hasNext)

        let late = try await fixture.sendAsOther("now at the end", to: channelId)
        let added = try await opened.recorder.next { $0.isAdded(source: .event) }
        #expect(added == .added([late], MessageContext(sendingStatus: .succeeded, source: .event)))
        #expect(collection.succeededMessages == all + [early, late])
    }

    @Test func editsAndDeletesArriveAsUpdatedAndDeleted() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let opened = try await fixture.open("general")
        let shown = opened.collection.succeededMessages
        let target = try #require(shown.last)
        let unlisted = try #require(before.first)
        #expect(!shown.contains(unlisted), "the oldest message is not loaded")

        try await fixture.server.perform(.editMessage(id: unlisted.id, text: "edited, not listed"), as: unlisted.userId)
        try await fixture.server.perform(.editMessage(id: target.id, text: "edited live"), as: target.userId)
        let update = try await opened.recorder.next { $0.isUpdated() }
        let edited = try #require(try await fixture.server.record(Message.self, id: target.id))
        #expect(edited.text == "edited live")
        #expect(update == .updated([edited], MessageContext(sendingStatus: .succeeded, source: .event)))
        #expect(opened.collection.succeededMessages == shown.dropLast() + [edited])

        try await fixture.server.perform(.deleteMessage(id: target.id), as: target.userId)
        let removal = try await opened.recorder.next { $0.isDeleted() }
        #expect(removal == .deleted([edited], MessageContext(sendingStatus: .succeeded, source: .event)))
        #expect(opened.collection.succeededMessages == Array(shown.dropLast()))
        #expect(opened.recorder.log.all.filter { $0.context != nil }.count == 2, "the unlisted edit is not reported")
    }

    @Test func messagesOfOtherChannelsAreIgnored() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general")
        let elsewhere = try await fixture.sendAsOther("elsewhere", to: "random")
        let here = try await fixture.sendAsOther("here")
        let added = try await opened.recorder.next { $0.isAdded(source: .event) }
        #expect(added.messages == [here])
        #expect(!opened.recorder.log.all.contains { $0.messages.contains { $0.channelId != "general" } })
        #expect(!opened.recorder.log.all.contains { event in
            if case .channelUpdated(let channel, _) = event { channel.id != "general" } else { false }
        })
        #expect(!opened.collection.succeededMessages.contains { $0.id == elsewhere.id })
    }

    @Test func channelUpdatesAndTheChannelsDeletionAreReported() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general")
        try await fixture.sendAsOther("news")
        let update = try await opened.recorder.next { $0.isChannelUpdated }
        guard case .channelUpdated(let channel, let context) = update else { return }
        #expect(channel.id == "general")
        #expect(channel.lastMessageText == "news")
        #expect(context == ChannelContext(source: .event))
        #expect(opened.collection.channel == channel)
        #expect(opened.collection.snapshot.data?.channel == channel)

        try await fixture.server.deleteChannel("general")
        let deletion = try await opened.recorder.next { $0.isChannelDeleted }
        #expect(deletion == .channelDeleted("general", ChannelContext(source: .event)))
    }

    // MARK: Offline

    @Test func messagesMissedOfflineArriveFromTheChangeLogOnce() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let opened = try await fixture.open("general")
        let missed = try await fixture.sendOffline(count: 50, prefix: "missed", from: ["alan", "grace", "tim"])
        let added = try await opened.recorder.next { $0.isAdded() }
        #expect(added == .added(missed, MessageContext(sendingStatus: .succeeded, source: .changelog)))
        let update = try await opened.recorder.next { $0.isChannelUpdated }
        if case .channelUpdated(let channel, let context) = update {
            #expect(channel.lastMessageText == "missed 49")
            #expect(context.source == .changelog)
        }
        let ids = opened.collection.succeededMessages.map(\.id)
        #expect(Set(ids).count == ids.count, "no duplicates")
        #expect(opened.collection.succeededMessages == Array(before.suffix(20)) + missed)

        // Back in step: the next message is an event, and nothing was added twice.
        let next = try await fixture.sendAsOther("back online")
        let live = try await opened.recorder.next { $0.isAdded() }
        #expect(live == .added([next], MessageContext(sendingStatus: .succeeded, source: .event)))
        #expect(opened.recorder.addedMessages == missed + [next])
    }

    @Test func editsAndDeletesMadeOfflineArriveFromTheChangeLog() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general")
        let shown = opened.collection.succeededMessages
        let edited = shown[shown.count - 2]
        let deleted = shown[shown.count - 4]
        fixture.server.disconnect()
        try await fixture.server.perform(.editMessage(id: edited.id, text: "edited offline"), as: edited.userId)
        try await fixture.server.perform(.deleteMessage(id: deleted.id), as: deleted.userId)
        fixture.server.reconnect()

        let update = try await opened.recorder.next { $0.isUpdated() }
        let serverEdited = try #require(try await fixture.server.record(Message.self, id: edited.id))
        #expect(update == .updated([serverEdited], MessageContext(sendingStatus: .succeeded, source: .changelog)))
        let removal = try await opened.recorder.next { $0.isDeleted() }
        #expect(removal == .deleted([deleted], MessageContext(sendingStatus: .succeeded, source: .changelog)))
        let expected = shown.filter { $0.id != deleted.id }.map { $0.id == edited.id ? serverEdited : $0 }
        #expect(opened.collection.succeededMessages == expected)
        #expect(opened.collection.succeededMessages == Array(try await fixture.serverMessages("general").suffix(expected.count)))
        #expect(opened.recorder.addedMessages.isEmpty)
    }

    @Test func aCatchUpAddsNothingBeyondTheLoadedEndOfACollectionOpenedInThePast() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 50)
        let opened = try await fixture.open(channelId, at: all[10].createdAt, params: MessageListParams(isInclusive: true))
        let shown = opened.collection.succeededMessages
        #expect(opened.collection.hasNext)
        fixture.server.disconnect()
        try await fixture.sendAsOther("missed, beyond the end", to: channelId)
        fixture.server.reconnect()
        // The catch-up reports the channel's new state: by then the change log was applied.
        _ = try await opened.recorder.next { event in
            if case .channelUpdated(_, let context) = event { context.source == .changelog } else { false }
        }
        #expect(opened.recorder.addedMessages.isEmpty)
        #expect(opened.collection.succeededMessages == shown)
    }

    @Test func aCollectionStartedOfflineLoadsWhenTheConnectionReturns() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let warm = try await fixture.open("general")
        warm.collection.dispose()

        fixture.server.disconnect()
        let opened = try await fixture.open("general")
        #expect(opened.result.cached == Array(before.suffix(20)))
        #expect(opened.result.api == nil)
        #expect(opened.result.apiError as? SocialAPIError == .offline)
        #expect(opened.collection.succeededMessages == Array(before.suffix(20)))

        let deleted = before[before.count - 3]
        let edited = before[before.count - 6]
        try await fixture.server.perform(.deleteMessage(id: deleted.id), as: deleted.userId)
        try await fixture.server.perform(.editMessage(id: edited.id, text: "edited while offline"), as: edited.userId)
        let added = try await fixture.sendAsOther("sent while offline", as: "grace")
        let truth = try await fixture.serverMessages("general")
        let serverEdited = try #require(truth.first { $0.id == edited.id })
        fixture.server.reconnect()

        let addition = try await opened.recorder.next { $0.isAdded() }
        #expect(addition == .added([added], MessageContext(sendingStatus: .succeeded, source: .api)))
        let update = try await opened.recorder.next { $0.isUpdated() }
        #expect(update == .updated([serverEdited], MessageContext(sendingStatus: .succeeded, source: .api)))
        let removal = try await opened.recorder.next { $0.isDeleted() }
        #expect(removal == .deleted([deleted], MessageContext(sendingStatus: .succeeded, source: .api)))
        #expect(opened.collection.succeededMessages == Array(truth.suffix(20)))
        #expect(opened.collection.hasPrevious == (truth.count > 20))
        #expect(!opened.collection.hasNext)

        // From then on it follows events.
        let live = try await fixture.sendAsOther("online again")
        let liveAdded = try await opened.recorder.next { $0.isAdded(source: .event) }
        #expect(liveAdded.messages == [live])
    }

    // Found by MessageCollectionModelTests (seed 21 of a 3-minute run): a collection started
    // offline reported the differences of its first load, then published a snapshot that already
    // showed the user's sent message the load settled, and only then reported that message sent.
    @Test func aCollectionStartedOfflineReportsEverythingItsFirstLoadChangedBeforeShowingIt() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server
        // The first run: the server stores a message but its answer is lost; the app quits.
        server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("answer lost", to: "general")
        }
        await fixture.client.store.close()

        // The second run starts offline and does not resend by itself: only the load settles it.
        server.disconnect()
        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        client.autoResendMessages = false
        client.startRealtime()
        let collection = client.createMessageCollection(channelId: "general")
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        let start = await collection.start()
        #expect((start.apiError as? SocialAPIError) == .offline)
        let pending = try #require(collection.pendingMessages.first)
        let other = try #require(try await server.perform(
            .sendText("while away", channelId: "general", clientRequestId: "alan-away"), as: "alan").first(Message.self))

        // Every message a snapshot shows was reported before it.
        let shownUnreported = Deliveries<String>()
        let observer = collection.snapshot.observeForever { snapshot in
            for message in snapshot?.succeededMessages ?? []
            where !recorder.log.all.contains(where: { $0.messages.contains { $0.id == message.id } }) {
                shownUnreported.record(message.text)
            }
        }
        server.reconnect()
        let sent = try await recorder.next { event in
            event.messages.contains { $0.clientRequestId == pending.clientRequestId }
        }
        for _ in 0 ..< 4 { _ = try await client.store.read { _ in 0 } }
        #expect(sent.context == MessageContext(sendingStatus: .succeeded, source: .api))
        if case .updated = sent {} else { Issue.record("the sent message was reported as \(sent), not updated") }
        #expect(shownUnreported.all.isEmpty)
        #expect(collection.succeededMessages.contains { $0.id == other.id })
        #expect(collection.pendingMessages.isEmpty)
        collection.snapshot.remove(observer: observer)
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
    }

    @Test func aChannelDeletedWhileOfflineIsReportedByTheCatchUp() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general")
        fixture.server.disconnect()
        try await fixture.server.deleteChannel("general")
        fixture.server.reconnect()
        let deletion = try await opened.recorder.next { $0.isChannelDeleted }
        #expect(deletion == .channelDeleted("general", ChannelContext(source: .changelog)))
    }

    @Test func aMessageArrivingDuringTheCatchUpIsListedOnce() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        let opened = try await fixture.open("general")
        let missed = try await fixture.sendOffline(count: 5, prefix: "missed")
        let during = try await fixture.sendAsOther("during the catch-up", as: "grace")
        // It comes as an event, or in the change log if that is read after it: either way once.
        let expected = Set((missed + [during]).map(\.id))
        while !expected.isSubset(of: opened.recorder.addedMessages.map(\.id)) { _ = try await opened.recorder.log.next() }
        try await fixture.settle()
        #expect(opened.collection.succeededMessages == Array(before.suffix(20)) + missed + [during])
        #expect(opened.recorder.addedMessages.sorted { $0.createdAt < $1.createdAt } == missed + [during], "each added once")
    }

    // MARK: Changes while the server answers

    @Test func aMessageArrivingWhileTheStartAwaitsTheServerIsKeptOnce() async throws {
        let fixture = try await ClientFixture()
        let before = try await fixture.serverMessages("general")
        _ = try await fixture.open("general")
        let collection = fixture.client.createMessageCollection(channelId: "general")
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        fixture.server.setLatency(.seconds(1))
        let start = Task { await collection.start() }
        await fixture.clock.waitForSleepers(1)
        let sent = try await fixture.sendAsOther("while starting")
        _ = try await recorder.next { $0.isAdded(source: .event) }
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        let result = await start.value
        #expect(result.cached == Array(before.suffix(20)))
        #expect(result.api == Array(before.suffix(19)) + [sent], "the server's pages were read after the message")
        #expect(collection.succeededMessages.filter { $0.id == sent.id }.count == 1)
        #expect(collection.succeededMessages.last == sent)
    }

    // With an empty cache the list is empty while the server answers: a message that arrives then is
    // kept when the server\'s older pages replace the list, and is not cleared from the cache as stale.
    @Test func aMessageArrivingAfterTheServerComputedTheFirstPageIsNotLost() async throws {
        let fixture = try await ClientFixture()
        let (client, gate) = try fixture.gatedClient()
        let collection = client.createMessageCollection(channelId: "general")
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        await gate.close()
        let start = Task { await collection.start() }
        await gate.waitUntilHolding(2)
        let sent = try await fixture.sendAsOther("after the page was read")
        // The channel's update follows the message's: once it is reported, the message was seen.
        _ = try await recorder.next { $0.isChannelUpdated }
        await gate.open()
        let result = await start.value
        #expect(result.apiError == nil)
        #expect(!collection.hasNext)
        #expect(collection.succeededMessages.last == sent, "the newest message, seen as an event, is listed")
        let cached = try await client.store.read { try Message.read(id: sent.id, from: $0) }
        #expect(cached == sent, "the cache keeps the message its event stored")
    }

    // A write commits before the collection hears of it: an observer is told on the main actor,
    // after the commit, and a page's answer can come in between. The page's write must still keep
    // the row, which is newer than the page (here, a write with no note, which the collection
    // never hears of: the answer to a send whose report is still on its way).
    @Test func aMessageWrittenAfterThePageWasReadStaysThoughTheCollectionHasNotHeardOfIt() async throws {
        let fixture = try await ClientFixture()
        let (client, gate) = try fixture.gatedClient()
        client.stopRealtime()
        let collection = client.createMessageCollection(channelId: "general")
        await gate.close()
        let start = Task { await collection.start() }
        await gate.waitUntilHolding(2)
        let sent = try await fixture.sendAsOther("after the page was read")
        try await client.store.write { try $0.upsert(sent) }
        await gate.open()
        #expect(await start.value.apiError == nil)
        let cached = try await client.store.read { try Message.read(id: sent.id, from: $0) }
        #expect(cached == sent, "the page's write keeps the message written after its request")
    }

    // What events bring while a page loads wins over the page: a message that arrives during the last
    // `loadNext` joins the list (reported as added) and stays in the cache.
    @Test func aMessageArrivingWhileTheLastNextPageLoadsIsNotLost() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 50)
        let (client, gate) = try fixture.gatedClient()
        let collection = client.createMessageCollection(
            channelId: channelId, startingPoint: all[10].createdAt, params: MessageListParams(isInclusive: true))
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        _ = await collection.start()
        #expect(collection.succeededMessages == Array(all[0..<30]))
        await gate.close()
        let page = Task { try await collection.loadNext() }
        await gate.waitUntilHolding(1)
        let sent = try await fixture.sendAsOther("while the page loads", to: channelId)
        _ = try await recorder.next { $0.isChannelUpdated }
        await gate.open()
        #expect(try await page.value == Array(all[30..<50]))
        #expect(!collection.hasNext)
        #expect(collection.succeededMessages == all + [sent], "no gap between the last page and the new message")
        let cached = try await client.store.read { try Message.read(id: sent.id, from: $0) }
        #expect(cached == sent, "the cache keeps the message its event stored")
    }

    // An edit that arrives while a page loads is not overwritten by the page\'s older copy, in the
    // list or in the cache.
    @Test func anEditArrivingWhileAPageLoadsIsNotOverwrittenByTheStalePage() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 60)
        let (client, gate) = try fixture.gatedClient()
        let collection = client.createMessageCollection(channelId: channelId)
        _ = await collection.start()
        #expect(collection.succeededMessages == Array(all[40..<60]))
        await gate.close()
        let page = Task { try await collection.loadPrevious() }
        await gate.waitUntilHolding(1)
        let target = all[30]
        try await fixture.server.perform(.editMessage(id: target.id, text: "edited while the page loads"), as: target.userId)
        let edited = try #require(try await fixture.server.record(Message.self, id: target.id))
        try await client.waitForCache(id: target.id) { $0 == edited }
        await gate.open()
        _ = try await page.value
        #expect(collection.succeededMessages.first { $0.id == target.id } == edited)
        let cached = try await client.store.read { try Message.read(id: target.id, from: $0) }
        #expect(cached == edited, "the cache keeps the newer copy its event stored")
    }
}
