import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing
import TestSupport

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct SocialClientTests {
    @Test func startRealtimeIsIdempotent() async throws {
        let fixture = try await ClientFixture(realtime: false)
        #expect(fixture.server.subscriberCount == 0)
        fixture.client.startRealtime()
        fixture.client.startRealtime()
        #expect(fixture.server.subscriberCount == 1)
        let feed = fixture.client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        _ = try await feed.next(in: log) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "once"), as: "alan")
        let live = try await feed.next(in: log) { $0.records.first?.text == "once" }
        #expect(live.records.filter { $0.text == "once" }.count == 1)
        #expect(fixture.server.subscriberCount == 1)
        _ = token
    }

    @Test func stopRealtimeStopsApplyingEvents() async throws {
        let fixture = try await ClientFixture()
        let feed = fixture.client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        _ = try await feed.next(in: log) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "while on"), as: "alan")
        _ = try await feed.next(in: log) { $0.records.first?.text == "while on" }
        // The post's other events (its author's and community's counts) commit too.
        try await fixture.settle()
        let sequence = fixture.client.lastEventSequence
        #expect(sequence > 0)

        fixture.client.stopRealtime()
        // A second subscriber sees the next event: once it has, the client would have too.
        var events = fixture.server.connection(userId: "tim").events().makeAsyncIterator()
        #expect(await events.next() == .connected)
        let result = try await fixture.server.perform(
            .createPost(targetType: .community, targetId: "swift", text: "while off"), as: "alan")
        while let event = await events.next(), event.sequence != result.sequence {}
        try await fixture.settle()
        #expect(fixture.server.subscriberCount == 1)  // only the second subscriber
        #expect(fixture.client.lastEventSequence == sequence)
        #expect(!log.all.contains { $0.records.contains { $0.text == "while off" } })
        let post = try #require(result.first(Post.self))
        #expect(try await fixture.client.store.read { try CacheTransactionFree.count(Post.self, id: post.id, in: $0) } == 0)
        _ = token
    }

    @Test func aDeletedEventRemovesTheRecordFromTheCache() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-10")
        let (log, token) = reactions.record()
        let fresh = try await reactions.next(in: log) { $0.dataStatus == .fresh }
        let target = try #require(fresh.records.first)
        fixture.client.apply(.deleted(SocialRecordKey(.reaction, target.id), sequence: 10_000))
        let removed = try await reactions.next(in: log) { !$0.records.contains(target) }
        #expect(removed.change?.deletions == [0])
        #expect(removed.records == Array(fresh.records.dropFirst()))
        #expect(fixture.client.lastEventSequence == 10_000)
        #expect(try await fixture.client.store.read { try CacheTransactionFree.count(Reaction.self, id: target.id, in: $0) } == 0)
        _ = token
    }

    @Test func lastEventSequenceAdvancesWithEventsAndNeverGoesBack() async throws {
        let fixture = try await ClientFixture()
        #expect(fixture.client.lastEventSequence == 0)
        let post = fixture.client.posts.get(id: "post-9")
        let (log, token) = post.record()
        _ = try await post.next(in: log) { $0.dataStatus == .fresh }
        let result = try await fixture.server.perform(.addReaction(targetType: .post, targetId: "post-9", name: "wow"), as: "alan")
        _ = try await post.next(in: log) { $0.snapshot?.reactionCount == result.first(Post.self)?.reactionCount }
        #expect(fixture.client.lastEventSequence == result.sequence)
        #expect(fixture.client.lastEventSequence == (try await fixture.server.latestSequence()))
        let snapshot = try #require(post.snapshot)
        fixture.client.apply(.updated(.post(snapshot), sequence: 1))
        #expect(fixture.client.lastEventSequence == result.sequence)
        fixture.client.apply(.connected)
        #expect(fixture.client.lastEventSequence == result.sequence)
        _ = token
    }

    @Test func isConnectedFollowsTheConnectionEvents() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let (stream, events) = AsyncStream<SocialEvent>.makeStream()
        let client = SocialClient(
            api: ScriptedEventsAPI(base: fixture.server.connection(userId: "ada"), stream: stream), userId: "ada",
            store: fixture.client.store)
        #expect(!client.isConnected)
        client.startRealtime()
        let user = try #require(try await fixture.server.record(User.self, id: "ada"))
        // Each connection event is followed by a change, whose arrival in the cache says the
        // connection event before it was applied (events apply in order). Its sequence number is
        // newer than the server's change log, which the reconnection catches up with.
        var sequence = try await fixture.server.latestSequence()
        func send(_ event: SocialEvent, then about: String) async throws {
            events.yield(event)
            var changed = user
            changed.about = about
            sequence += 1
            events.yield(.updated(.user(changed), sequence: sequence))
            try await fixture.waitFor(User.self, id: "ada") { $0?.about == about }
        }
        try await send(.connected, then: "one")
        #expect(client.isConnected)
        try await send(.disconnected, then: "two")
        #expect(!client.isConnected)
        try await send(.connected, then: "three")
        #expect(client.isConnected)
        client.stopRealtime()
    }

    @Test func isConnectedFollowsTheServersConnection() async throws {
        let fixture = try await ClientFixture()
        let feed = fixture.client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        _ = try await feed.next(in: log) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "first"), as: "alan")
        _ = try await feed.next(in: log) { $0.records.first?.text == "first" }
        #expect(fixture.client.isConnected)
        fixture.server.disconnect()
        // `.disconnected` reaches the client through its event stream: wait until it is applied
        // (the suite's time limit cancels the wait if it never is).
        while fixture.client.isConnected {
            try Task.checkCancellation()
            await Task.yield()
        }
        #expect(!fixture.client.isConnected)
        fixture.server.reconnect()
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "second"), as: "alan")
        _ = try await feed.next(in: log) { $0.records.first?.text == "second" }
        #expect(fixture.client.isConnected)
        _ = token
    }

    @Test func aCacheFileKeepsDataForTheNextClient() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        let first = fixture.client
        #expect(first.store.recovery == nil)
        let feed = first.posts.communityFeed(communityId: "coffee")
        let (firstLog, firstToken) = feed.record()
        let fresh = try await feed.next(in: firstLog) { $0.dataStatus == .fresh }
        #expect(!fresh.records.isEmpty)
        firstToken.invalidate()
        await first.store.close()

        server.disconnect()
        let second = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url))
        #expect(second.store.recovery == nil)
        let reopened = second.posts.communityFeed(communityId: "coffee")
        let (log, token) = reopened.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.records == fresh.records)
        let failed = try await reopened.next(in: log) { $0.loadingStatus == .error }
        #expect(failed.records == fresh.records)
        #expect((failed.error as? SocialAPIError) == .offline)
        _ = token
        await second.store.close()
    }

    @Test func changesAKilledRunLeftSyncingAreSettledByTheServerOnTheFirstConnection() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server
        let sent = try #require(
            try await server.perform(.sendText("hello", channelId: "general", clientRequestId: "r1"), as: "ada").first(Message.self))
        _ = try await server.perform(.addReaction(targetType: .message, targetId: sent.id, name: "like"), as: "ada")
        // What a run killed while three mutations waited for the server leaves: its local changes,
        // syncing. The server got the reaction "like" (its answer was lost), not the edit, nor "love".
        let like = Reaction.makeID(targetType: .message, targetId: sent.id, userId: "ada", name: "like")
        let love = Reaction.makeID(targetType: .message, targetId: sent.id, userId: "ada", name: "love")
        var edited = sent
        edited.text = "never reached the server"
        edited.syncState = .syncing
        try await fixture.client.store.write { [edited] transaction in
            try transaction.upsert(edited)
            for (id, name) in [(like, "like"), (love, "love")] {
                try transaction.upsert(Reaction(
                    id: id, targetType: .message, targetId: sent.id, userId: "ada", name: name, createdAt: 1, syncState: .syncing))
            }
        }
        await fixture.client.store.close()

        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url))
        client.startRealtime()
        let read = { @Sendable (connection: SQLiteConnection) throws -> [String] in
            try connection.query(
                "SELECT 'message ' || text || ' ' || syncState FROM messages WHERE id = ? UNION ALL SELECT 'reaction ' || name || ' ' || syncState FROM reactions WHERE targetId = ? ORDER BY 1",
                [.text(sent.id), .text(sent.id)]) { $0.string(0) }
        }
        let settled = ["message hello synced", "reaction like synced"]
        var rows: [String] = []
        for _ in 0..<2_000 {
            rows = try await client.store.read(read)
            if rows == settled { break }
            await Task.yield()
        }
        #expect(rows == settled, "the server's copies replace the local ones; a reaction the server lacks is removed")
        await client.store.close()
    }

    @Test func aRemovalAKilledRunLeftUnansweredIsUndoneWhenTheServerStillHasTheRecord() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server
        let sent = try #require(
            try await server.perform(.sendText("hello", channelId: "general", clientRequestId: "r1"), as: "ada").first(Message.self))
        try await fixture.client.reactions.add("like", to: .message, targetId: sent.id)
        let like = Reaction.makeID(targetType: .message, targetId: sent.id, userId: "ada", name: "like")
        let count = { @Sendable (connection: SQLiteConnection) throws -> Int in
            try CacheTransactionFree.count(Reaction.self, id: like, in: connection)
        }
        #expect(try await fixture.client.store.read(count) == 1)

        // The user takes the reaction back; the server (its clock standing still) never answers,
        // and the run ends there, as if killed: the reaction is gone from the cache only.
        server.setLatency(.seconds(1))
        let removal = Task { try await fixture.client.reactions.remove("like", from: .message, targetId: sent.id) }
        var left = 1
        for _ in 0..<2_000 where left > 0 {
            left = try await fixture.client.store.read(count)
            await Task.yield()
        }
        #expect(left == 0, "the removal shows at once")
        await fixture.client.store.close()
        removal.cancel()
        server.setLatency(.zero)

        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url))
        client.startRealtime()
        var back = 0
        for _ in 0..<2_000 where back == 0 {
            back = try await client.store.read(count)
            await Task.yield()
        }
        #expect(back == 1, "the server still has the reaction: the next run brings it back")
        await client.store.close()
    }

    @Test func aCorruptCacheFileIsRebuilt() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        try Data(repeating: 0xA5, count: 8_192).write(to: url)
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        let client = fixture.client
        let recovery = try #require(client.store.recovery)
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        let communities = client.communities.communities()
        let (log, token) = communities.record()
        let fresh = try await communities.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.records.map(\.id) == (try await server.records(.communities())).map(\.id))
        _ = token
        await client.store.close()
    }
}

/// Counts cached rows without a transaction.
enum CacheTransactionFree {
    static func count<Record: CacheRecord>(_ type: Record.Type, id: String, in connection: SQLiteConnection) throws -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM \(Record.table.name) WHERE id = ?", [.text(id)]) { $0.int(0) } ?? 0
    }
}

// MARK: Catching up after a reconnection

extension SocialClientTests {
    @Test func aReconnectionCatchesLiveCollectionsAndObjectsUpWithWhatChangedMeanwhile() async throws {
        let fixture = try await ClientFixture()
        let client = fixture.client
        let feed = client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        _ = try await feed.next(in: log) { $0.dataStatus == .fresh && $0.loadingStatus == .loaded }
        // One applied event gives the client its sync point.
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "before"), as: "alan")
        let before = try await feed.next(in: log) { $0.records.first?.text == "before" }
        try await fixture.settle()
        let syncPoint = client.lastEventSequence
        #expect(syncPoint > 0)
        let edited = try #require(before.records.dropFirst().first)
        let removed = try #require(before.records.dropFirst(2).first)
        let object = client.posts.get(id: edited.id)
        let (objectLog, objectToken) = object.record()
        _ = try await object.next(in: objectLog) { $0.snapshot?.text == edited.text }

        fixture.server.disconnect()
        try await waitUntil { !client.isConnected }
        let created = try await fixture.server.perform(
            .createPost(targetType: .community, targetId: "swift", text: "missed"), as: "alan")
        _ = try await fixture.server.perform(.updatePost(id: edited.id, text: "edited meanwhile"), as: edited.authorId)
        _ = try await fixture.server.perform(.deletePost(id: removed.id), as: removed.authorId)
        try await fixture.settle()
        #expect(client.lastEventSequence == syncPoint, "events are missed while disconnected")
        log.skipUnread()
        let mark = log.all.count

        fixture.server.reconnect()
        let caughtUp = try await feed.next(in: log) { delivery in
            delivery.records.first?.text == "missed" && !delivery.records.contains { $0.id == removed.id }
                && delivery.records.contains { $0.id == edited.id && $0.text == "edited meanwhile" }
        }
        // Every delivery since the reconnection carries the change set that leads to it.
        var shown = log.all[mark - 1].records.map(\.id)
        for delivery in log.all[mark...] {
            let change = try #require(delivery.change)
            for index in change.deletions.reversed() { shown.remove(at: index) }
            for index in change.insertions { shown.insert(delivery.records[index].id, at: index) }
            #expect(shown == delivery.records.map(\.id))
        }
        #expect(log.all.contains { $0.change.map { !$0.modifications.isEmpty } ?? false }, "the edit is reported as a modification")
        #expect(caughtUp.records.filter { $0.text == "missed" }.count == 1)
        _ = try await object.next(in: objectLog) { $0.snapshot?.text == "edited meanwhile" }
        try await waitUntil { client.lastEventSequence >= created.sequence }
        #expect(client.lastEventSequence == (try await fixture.server.latestSequence()))
        _ = (token, objectToken)
    }

    @Test func eventsThatArriveDuringACatchUpAreNotOverwrittenByTheOlderChangeLog() async throws {
        let (server, api, client) = try await gatedClient()
        let post = try #require(try await server.records(.communityFeed(communityId: "swift")).first)
        let object = client.posts.get(id: post.id)
        let (objectLog, token) = object.record()
        let first = try await server.perform(.updatePost(id: post.id, text: "one"), as: post.authorId)
        client.apply(.updated(try #require(first.records.first { $0.id == post.id }), sequence: first.sequence))
        _ = try await object.next(in: objectLog) { $0.snapshot?.text == "one" }
        try await waitUntil { client.lastEventSequence == first.sequence }

        api.send(.disconnected)
        let missed = try await server.perform(.updatePost(id: post.id, text: "two, while offline"), as: post.authorId)
        api.holdNextLog()
        api.send(.connected)
        try await waitUntil { api.hasHeldLog }
        // The log holds "two"; meanwhile "three" happens, and its event arrives before the log
        // does, followed by a late duplicate of "one" (older than the log: dropped).
        let newer = try await server.perform(.updatePost(id: post.id, text: "three"), as: post.authorId)
        client.apply(.updated(try #require(newer.records.first { $0.id == post.id }), sequence: newer.sequence))
        client.apply(.updated(try #require(first.records.first { $0.id == post.id }), sequence: first.sequence))
        api.releaseLog()
        try await waitUntil { client.lastEventSequence == newer.sequence }
        try await settle(client)
        #expect(object.snapshot?.text == "three")
        let texts = objectLog.all.compactMap { $0.snapshot?.text }
        #expect(Array(texts.drop { $0 != "one" }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } })
                == ["one", "two, while offline", "three"])
        #expect(missed.sequence < newer.sequence && api.logRequests == 1)
        _ = token
    }

    @Test func aFailedCatchUpIsRetriedFromWhereItStoppedOnTheNextReconnection() async throws {
        let (server, api, client) = try await gatedClient()
        // The wait before a retry while connected never ends here: the reconnection retries.
        client.retryPolicy = RetryPolicy(clock: ManualClock(), random: { 0 })
        let (feed, log, token) = try await feedWithASyncPoint(client, server)

        api.send(.disconnected)
        _ = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "missed"), as: "alan")
        api.failNextLogs(1)
        api.send(.connected)
        try await waitUntil { client.isConnected && api.logRequests == 1 }
        // An event after the failed catch-up moves the sync point past the missed post.
        let later = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "later"), as: "alan")
        client.apply(.created(try #require(later.records.first { $0.kind == .post }), sequence: later.sequence))
        try await waitUntil { client.lastEventSequence == later.sequence }
        try await settle(client)
        #expect(api.logRequests == 1)
        #expect(!feed.allObjects().contains { $0.text == "missed" }, "the failed catch-up wrote nothing")

        api.send(.disconnected)
        api.send(.connected)
        _ = try await feed.next(in: log) { $0.records.contains { $0.text == "missed" } }
        #expect(feed.allObjects().prefix(3).map(\.text) == ["later", "missed", "first"])
        #expect(api.logRequests == 2)
        _ = token
    }

    /// A catch-up outlives two drops: the events it held came from two connections, with a gap
    /// between them that only the next pass reads. Applying the newer connection's events must
    /// not move the point that pass starts from past the gap, even when the connection is down
    /// again as the first pass ends and the next pass waits for the next reconnection.
    @Test func aCatchUpThatOutlivesTwoDropsReadsTheGapBetweenThemOnTheNextReconnection() async throws {
        let (server, api, client) = try await gatedClient()
        let (feed, _, token) = try await feedWithASyncPoint(client, server)

        api.send(.disconnected)
        _ = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "first outage"), as: "alan")
        api.holdNextLog()
        api.send(.connected)
        try await waitUntil { api.hasHeldLog }
        // While the log is on its way: a drop, a change nobody streams, a new connection whose
        // event is held, and a third drop.
        api.send(.disconnected)
        _ = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "second outage"), as: "alan")
        api.send(.connected)
        let after = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "after"), as: "alan")
        client.apply(.created(try #require(after.records.first { $0.kind == .post }), sequence: after.sequence))
        api.send(.disconnected)
        try await waitUntil { !client.isConnected }
        api.releaseLog()
        try await waitUntil { client.lastEventSequence == after.sequence }
        try await settle(client)
        #expect(api.logRequests == 1, "no pass runs while the connection is down")

        api.send(.connected)
        try await waitUntil { feed.allObjects().contains { $0.text == "second outage" } }
        #expect(feed.allObjects().prefix(4).map(\.text) == ["after", "second outage", "first outage", "first"])
        _ = token
    }

    @Test func aCatchUpThatTheServerFailsIsRetriedAfterAWaitWhileTheConnectionStaysUp() async throws {
        let (server, api, client) = try await gatedClient()
        let clock = ManualClock()
        client.retryPolicy = RetryPolicy(clock: clock, random: { 0 })
        let (feed, log, token) = try await feedWithASyncPoint(client, server)

        api.send(.disconnected)
        _ = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "missed"), as: "alan")
        // The server fails the catch-up twice (its database restarting, say); its event stream
        // stays up, so no reconnection comes to try again.
        api.failNextLogs(2)
        api.send(.connected)
        await clock.waitForSleepers(1)
        #expect(api.logRequests == 1)
        clock.advance(by: .milliseconds(499))
        try await settle(client)
        #expect(api.logRequests == 1, "the first retry waits half a second")
        clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(1)
        #expect(api.logRequests == 2)
        clock.advance(by: .seconds(1))
        _ = try await feed.next(in: log) { $0.records.contains { $0.text == "missed" } }
        #expect(api.logRequests == 3)
        try await settle(client)
        #expect(clock.sleeperCount == 0, "a catch-up that succeeds waits for nothing more")
        #expect(feed.allObjects().prefix(2).map(\.text) == ["missed", "first"])
        _ = token
    }

    @Test func aCatchUpThatBringsTheServerCopyOfAPostBeingCreatedReplacesTheLocalCopy() async throws {
        let (server, api, client) = try await gatedClient()
        let (feed, log, token) = try await feedWithASyncPoint(client, server)

        // The server makes the create; the connection drops before its answer arrives.
        api.holdNextPerform()
        let creating = Task { try await client.posts.create(text: "mine", in: .community, targetId: "swift") }
        try await waitUntil { api.hasHeldPerform }
        api.send(.disconnected)
        api.send(.connected)
        _ = try await feed.next(in: log) { delivery in delivery.records.contains { $0.text == "mine" && $0.syncState == .synced } }
        api.releasePerform(losingAnswer: true)
        await #expect(throws: SocialAPIError.offline) { try await creating.value }
        try await settle(client)
        let mine = feed.allObjects().filter { $0.text == "mine" }
        #expect(mine.count == 1, "the server's copy replaced the local one: \(mine)")
        #expect(mine.first.map { !$0.id.hasPrefix("local-") && $0.syncState == .synced } == true)
        _ = token
    }

    @Test func theFirstConnectionDoesNotCatchUp() async throws {
        let (server, api, client) = try await gatedClient()
        // A client that never applied an event has no sync point, even across a reconnection
        // (applied before the event below, which would give it one).
        api.send(.disconnected)
        try await waitUntil { !client.isConnected }
        api.send(.connected)
        try await waitUntil { client.isConnected }
        let result = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "event"), as: "alan")
        client.apply(.created(try #require(result.records.first { $0.kind == .post }), sequence: result.sequence))
        // Held by a catch-up, the event would apply only after its change log.
        try await waitUntil { client.lastEventSequence == result.sequence }
        #expect(api.logRequests == 0)
        #expect(client.isConnected)
    }

    /// A seeded server and a client over an in-memory cache whose real time the test drives.
    private func gatedClient() async throws -> (EmbeddedServer, CatchUpGateAPI, SocialClient) {
        let fixture = try await ClientFixture(realtime: false)
        let api = CatchUpGateAPI(base: fixture.server.connection(userId: "ada"))
        let client = try SocialClient(api: api, userId: "ada", cache: .inMemory)
        client.startRealtime()
        try await waitUntil { client.isConnected }
        return (fixture.server, api, client)
    }

    /// The Swift feed, loaded, once a post "first" reached it as an event: the client then has a
    /// sync point to catch up from.
    private func feedWithASyncPoint(
        _ client: SocialClient, _ server: EmbeddedServer
    ) async throws -> (LiveCollection<Post>, Deliveries<CollectionDelivery<Post>>, NotificationToken) {
        let feed = client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        _ = try await feed.next(in: log) { $0.dataStatus == .fresh && $0.loadingStatus == .loaded }
        let first = try await server.perform(.createPost(targetType: .community, targetId: "swift", text: "first"), as: "alan")
        client.apply(.created(try #require(first.records.first { $0.kind == .post }), sequence: first.sequence))
        _ = try await feed.next(in: log) { $0.records.first?.text == "first" }
        return (feed, log, token)
    }

    /// Waits for `rounds` round trips through the client's store queue.
    private func settle(_ client: SocialClient, rounds: Int = 4) async throws {
        for _ in 0 ..< rounds { _ = try await client.store.read { _ in 0 } }
    }

    /// Waits (bounded, yielding) until `condition` holds; the time limit only fails the test.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "a condition never held")
            await Task.yield()
        }
    }
}
