import Foundation
import LiveDataPostgres
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

/// The store contract: the same expectations of ``EmbeddedServer`` on its SQLite store and on
/// the PostgreSQL store (records, keyset pages, the change log, counters and timestamps,
/// transactions, idempotent answers), and the same answers from both for the same writes.
@Suite("ServerStore contract", .serialized)
struct ServerStoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func recordsAreWrittenReadAndRemoved(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { Task { await fixture.close() } }
        let server = fixture.server
        try await server.createUser(id: "ada", displayName: "Ada")
        try await server.createUser(id: "Zoë ünïcode", displayName: "Z", about: "quote ' and ? marks")
        try await server.perform(.follow(userId: "Zoë ünïcode"), as: "ada")
        let follow = try #require(try await server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "Zoë ünïcode")))
        #expect(follow.followerId == "ada")
        #expect(try await server.record(User.self, id: "Zoë ünïcode")?.about == "quote ' and ? marks")
        #expect(try await server.record(User.self, id: "Zoë ünïcode")?.followerCount == 1)
        try await server.perform(.unfollow(userId: "Zoë ünïcode"), as: "ada")
        #expect(try await server.record(Follow.self, id: follow.id) == nil)
        #expect(try await server.record(User.self, id: "Zoë ünïcode")?.followerCount == 0)
        #expect(try await server.record(User.self, id: "nobody") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFollowTheKeysetInBytewiseOrder(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { Task { await fixture.close() } }
        let server = fixture.server
        // Bytewise: "B" < "a" < "b" < "é"; a locale's collation would put them otherwise.
        for id in ["b", "B", "é", "a", "a-2", "A"] { try await server.createUser(id: id, displayName: id) }
        let ids = try await server.ids(of: .user)
        #expect(ids == ["A", "B", "a", "a-2", "b", "é"])
        for id in ids where id != "A" { try await server.perform(.follow(userId: "A"), as: id) }
        let connection = server.connection(userId: "A")
        var cursor: String?
        var pages: [[String]] = []
        repeat {
            let page = try await connection.fetchPage(.followers(of: "A"), cursor: cursor, limit: 2)
            pages.append(page.records.map(\.followerId))
            cursor = page.nextCursor
        } while cursor != nil
        let all = try await server.records(SocialQuery<Follow>.followers(of: "A")).map(\.followerId)
        #expect(pages.flatMap { $0 } == all)
        #expect(pages.count == 3)
        #expect(Set(all) == ["B", "a", "a-2", "b", "é"])
    }

    @Test(arguments: StoreKind.allCases)
    func theChangeLogIsGaplessScopedAndInOrder(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { Task { await fixture.close() } }
        let server = fixture.server
        #expect(try await server.latestSequence() == 0)
        try await server.seedDemoData()
        let afterSeed = try await server.latestSequence()
        for number in 0..<5 {
            try await server.perform(
                .sendMessage(channelId: number.isMultiple(of: 2) ? "general" : "random", clientRequestId: "r\(number)",
                             type: .text, text: "hello \(number)", parentId: nil, metaArrays: [:]),
                as: "ada")
        }
        let latest = try await server.latestSequence()
        // Each message logs itself and its channel.
        #expect(latest == afterSeed + 10)
        let connection = server.connection(userId: "ada")
        var sequence: Int64 = 0
        var seen = 0
        while true {
            let log = try await connection.changes(since: sequence, limit: 100, scope: .all)
            seen += log.records.count + log.deleted.count
            #expect(log.latestSequence >= sequence)
            sequence = log.latestSequence
            if !log.hasMore { break }
        }
        #expect(sequence == latest)
        #expect(seen > 0)
        let general = try await connection.changes(since: afterSeed, limit: 100, scope: .messages(channelId: "general"))
        #expect(general.records.compactMap { if case .message(let m) = $0 { m.text } else { nil } } == ["hello 0", "hello 2", "hello 4"])
    }

    @Test(arguments: StoreKind.allCases)
    func timestampsAndIdsAdvanceAndARefusedWriteLeavesNothing(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { Task { await fixture.close() } }
        let server = fixture.server
        try await server.seedDemoData()
        let send = { (id: String, user: String) -> SocialMutation in
            .sendMessage(channelId: "general", clientRequestId: id, type: .text, text: id, parentId: nil, metaArrays: [:])
        }
        let first = try #require(try await server.perform(send("one", "ada"), as: "ada").first(Message.self))
        let second = try #require(try await server.perform(send("two", "ada"), as: "ada").first(Message.self))
        #expect(second.createdAt > first.createdAt)
        #expect(first.id != second.id)
        let before = try await server.latestSequence()
        // Tim is not in "ada-alan", a private channel: refused, and nothing is logged.
        await #expect(throws: SocialAPIError.self) {
            try await server.perform(
                .sendMessage(channelId: "ada-alan", clientRequestId: "x", type: .text, text: "x", parentId: nil, metaArrays: [:]),
                as: "tim")
        }
        #expect(try await server.latestSequence() == before)
    }

    @Test(arguments: StoreKind.allCases)
    func anIdempotentAnswerIsStoredWithItsChanges(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { Task { await fixture.close() } }
        let server = fixture.server
        try await server.seedDemoData()
        let connection = server.connection(userId: "ada")
        let mutation = SocialMutation.createPost(targetType: .user, targetId: "ada", text: "once")
        let encode: @Sendable (SocialMutationResult) throws -> [UInt8] = { Array("\($0.sequence)".utf8) }
        let first = try await connection.perform(mutation, idempotencyKey: "key-1", encode: encode)
        let sequence = try await server.latestSequence()
        let again = try await connection.perform(mutation, idempotencyKey: "key-1", encode: encode)
        #expect(again == first)
        #expect(try await server.latestSequence() == sequence)
        // The key is per user: another user's same key is another request.
        _ = try await server.connection(userId: "alan").perform(
            .createPost(targetType: .user, targetId: "alan", text: "once"), idempotencyKey: "key-1", encode: encode)
        #expect(try await server.latestSequence() > sequence)
        let posts = try await server.records(SocialQuery<Post>.postsByAuthor("ada")).filter { $0.text == "once" }
        #expect(posts.count == 1)
    }

    @Test func bothStoresAnswerAlike() async throws {
        let sqlite = try await StoreFixture.make(.sqlite)
        let postgres = try await StoreFixture.make(.postgres)
        defer { Task { await postgres.close() } }
        var answers: [StoreKind: [String]] = [:]
        for (kind, fixture) in [(StoreKind.sqlite, sqlite), (.postgres, postgres)] {
            let server = fixture.server
            try await server.seedDemoData()
            try await server.perform(.addReaction(targetType: .message, targetId: "msg-1", name: "like"), as: "ada")
            try await server.perform(.deleteMessage(id: "msg-2"), as: try #require(try await server.record(Message.self, id: "msg-2")?.userId))
            try await server.perform(.leaveChannel(id: "random"), as: "alan")
            var lines: [String] = []
            lines.append("\(try await server.records(SocialQuery<Channel>.channels()))")
            lines.append("\(try await server.records(SocialQuery<Message>.messages(channelId: "general", newestFirst: true)))")
            lines.append("\(try await server.records(SocialQuery<Message>.messages(channelId: "random", newestFirst: false)))")
            lines.append("\(try await server.records(SocialQuery<Post>.userFeed(userId: "ada")))")
            lines.append("\(try await server.records(SocialQuery<Community>.communities()))")
            lines.append("\(try await server.records(SocialQuery<ChannelMember>.channelMembers(channelId: "general")))")
            lines.append("\(try await server.connection(userId: "alan").changes(since: 0, limit: 5_000, scope: .all))")
            lines.append("\(try await server.connection(userId: "tim").changes(since: 0, limit: 5_000, scope: .all))")
            lines.append("\(try await server.latestSequence())")
            answers[kind] = lines
        }
        let sqliteLines = try #require(answers[.sqlite])
        let postgresLines = try #require(answers[.postgres])
        #expect(sqliteLines.count == postgresLines.count)
        for (left, right) in zip(sqliteLines, postgresLines) { #expect(left == right) }
    }
}
