import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct EmbeddedServerPagingTests {
    /// Pages through a query in small pages and checks the result against one big page.
    private func checkPaging<Record: CacheRecord>(
        _ query: SocialQuery<Record>, _ fixture: ServerFixture, pageSize: Int = 3, expectAtLeast minimum: Int = 1
    ) async throws {
        let api = fixture.connection()
        let paged = try await fetchAll(query, from: api, pageSize: pageSize)
        let whole = try await api.fetchPage(query, cursor: nil, limit: 100_000)
        #expect(whole.nextCursor == nil)
        #expect(paged.records == whole.records, "\(query.kind)")
        #expect(Set(paged.records.map(\.id)).count == paged.records.count, "duplicates in \(query.kind)")
        #expect(paged.records.count >= minimum, "\(query.kind) lists \(paged.records.count)")
        #expect(paged.pages == max(1, (paged.records.count + pageSize - 1) / pageSize))
        #expect(isInQueryOrder(paged.records, query.cacheQuery), "\(query.kind) is out of order")
    }

    @Test func everyQueryKindPagesToTheEndWithoutDuplicatesOrMisses() async throws {
        let fixture = try await ServerFixture.seeded()
        let server = fixture.server
        let post = try #require(try await server.records(SocialQuery.communityFeed(communityId: "swift")).first)
        let comments = try await server.records(SocialQuery.comments(postId: post.id))
        try await checkPaging(.userFeed(userId: "ada"), fixture)
        try await checkPaging(.postsByAuthor("ada", includeDeleted: true), fixture, expectAtLeast: 3)
        try await checkPaging(.communityFeed(communityId: "swift"), fixture, expectAtLeast: 4)
        try await checkPaging(.comments(postId: post.id), fixture, expectAtLeast: comments.count)
        try await checkPaging(.comments(postId: post.id, newestFirst: true, includeDeleted: true), fixture,
                              expectAtLeast: comments.count)
        if let parent = comments.first {
            try await checkPaging(.comments(postId: post.id, parentId: parent.id), fixture)
        }
        // The seed data gives post-10 five reactions, two of them "love".
        try await checkPaging(.reactions(targetType: .post, targetId: "post-10"), fixture, expectAtLeast: 5)
        try await checkPaging(.reactions(targetType: .post, targetId: "post-10", name: "love"), fixture, expectAtLeast: 2)
        try await checkPaging(.followers(of: "ada"), fixture, expectAtLeast: 2)
        try await checkPaging(.following(of: "ada", status: nil), fixture, expectAtLeast: 2)
        try await checkPaging(.channels(), fixture, expectAtLeast: 4)
        try await checkPaging(.channels(types: [.community, .live]), fixture, expectAtLeast: 3)
        try await checkPaging(.messages(channelId: "general"), fixture, pageSize: 7, expectAtLeast: 24)
        try await checkPaging(.messages(channelId: "general", newestFirst: false), fixture, pageSize: 5, expectAtLeast: 24)
        try await checkPaging(.messages(channelId: "general", types: [.text], senderIds: ["ada"], includeDeleted: true), fixture)
        try await checkPaging(.channelMembers(channelId: "general"), fixture, expectAtLeast: 6)
        try await checkPaging(.channelMembers(channelId: "general", roles: [.admin], memberships: nil), fixture)
        try await checkPaging(.communities(), fixture, expectAtLeast: 3)
        try await checkPaging(.communities(publicOnly: true, sortedBy: .newestFirst), fixture, expectAtLeast: 2)
        try await checkPaging(.communityMembers(communityId: "swift"), fixture)
        try await checkPaging(.communityMembers(communityId: "swift", roles: [.admin]), fixture)
    }

    @Test func filtersMatchTheirQueries() async throws {
        let fixture = try await ServerFixture.seeded()
        let server = fixture.server
        let adaMessages = try await server.records(SocialQuery.messages(channelId: "general", senderIds: ["ada"]))
        #expect(!adaMessages.isEmpty && adaMessages.allSatisfy { $0.userId == "ada" && $0.channelId == "general" })
        let live = try await server.records(SocialQuery.channels(types: [.live]))
        #expect(live.map(\.id) == ["keynote"])
        let open = try await server.records(SocialQuery.communities(publicOnly: true))
        #expect(open.map(\.id) == ["swift", "hiking"])
        let admins = try await server.records(SocialQuery.channelMembers(channelId: "general", roles: [.admin]))
        #expect(admins.map(\.userId) == ["ada"])
    }

    @Test func deletedRecordsShowOnlyWhenAskedFor() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("ada")
        let message = try #require(try await api.perform(.sendText("bye", channelId: "general", clientRequestId: "d")).first(Message.self))
        _ = try await api.perform(.deleteMessage(id: message.id))
        let visible = try await fetchAll(SocialQuery.messages(channelId: "general"), from: api, pageSize: 10).records
        let all = try await fetchAll(SocialQuery.messages(channelId: "general", includeDeleted: true), from: api, pageSize: 10).records
        #expect(!visible.contains { $0.id == message.id })
        #expect(all.contains { $0.id == message.id && $0.isDeleted })
        #expect(all.count == visible.count + 1)
    }

    @Test func writesBetweenPagesCauseNoDuplicatesOrSkips() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("ada")
        let query = SocialQuery.messages(channelId: "general")
        let original = try await fixture.server.records(query)
        let first = try await api.fetchPage(query, cursor: nil, limit: 5)
        fixture.clock.advance(by: .seconds(1))
        _ = try await api.perform(.sendText("new at the top", channelId: "general", clientRequestId: "n"))
        var records = first.records
        var cursor = first.nextCursor
        while let next = cursor {
            let page = try await api.fetchPage(query, cursor: next, limit: 5)
            records += page.records
            cursor = page.nextCursor
        }
        #expect(records == original)
    }

    @Test func badCursorsAndLimitsAreInvalidRequests() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        await #expect(throws: SocialAPIError.invalidRequest("unknown cursor 'garbage'")) {
            try await api.fetchPage(SocialQuery.channels(), cursor: "garbage", limit: 5)
        }
        // A cursor that starts with the separator (no type tag) used to crash the decoder.
        for cursor in ["\u{1F}x", "\u{1F}", "i\u{1F}x", "inot-a-number\u{1F}x"] {
            await #expect(throws: SocialAPIError.invalidRequest("unknown cursor '\(cursor)'")) {
                try await api.fetchPage(SocialQuery.channels(), cursor: cursor, limit: 5)
            }
        }
        await #expect(throws: SocialAPIError.self) { try await api.fetchPage(SocialQuery.channels(), cursor: nil, limit: 0) }
    }
}
