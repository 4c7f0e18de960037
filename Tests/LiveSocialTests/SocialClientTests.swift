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
        // connection event before it was applied (events apply in order).
        func send(_ event: SocialEvent, then about: String) async throws {
            events.yield(event)
            var changed = user
            changed.about = about
            events.yield(.updated(.user(changed), sequence: 1))
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
