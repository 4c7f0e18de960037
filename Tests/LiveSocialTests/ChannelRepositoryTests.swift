import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ChannelRepositoryTests {
    @Test func getShowsTheCachedChannelFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let channels = fixture.client.channels.channels()
        let (listLog, listToken) = channels.record()
        let listed = try await channels.next(in: listLog) { $0.dataStatus == .fresh }
        let random = try #require(listed.records.first { $0.id == "random" })
        _ = try await fixture.server.perform(.sendText("news", channelId: "random", clientRequestId: "n1"), as: "alan")

        let channel = fixture.client.channels.get(id: "random")
        let (log, token) = channel.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == random)
        let fresh = try await channel.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.lastMessageText == "news")
        #expect(fresh.snapshot?.messageCount == random.messageCount + 1)
        _ = (listToken, token)
    }

    @Test func channelsAreMostRecentlyActiveFirstAndFilteredByType() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let all = fixture.client.channels.channels()
        let community = fixture.client.channels.channels(types: [.community])
        let chats = fixture.client.channels.channels(types: [.live, .conversation])
        let (allLog, t1) = all.record()
        let (communityLog, t2) = community.record()
        let (chatsLog, t3) = chats.record()
        let every = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        let communities = try await community.next(in: communityLog) { $0.dataStatus == .fresh }
        let others = try await chats.next(in: chatsLog) { $0.dataStatus == .fresh }
        #expect(every.records.map(\.id) == (try await fixture.server.records(.channels())).map(\.id))
        #expect(every.records.count == 4)
        #expect(every.records.map(\.lastActivityAt) == every.records.map(\.lastActivityAt).sorted(by: >))
        #expect(communities.records.map(\.id) == (try await fixture.server.records(.channels(types: [.community]))).map(\.id))
        #expect(Set(communities.records.map(\.id)) == ["general", "random"])
        #expect(others.records.map(\.id) == (try await fixture.server.records(.channels(types: [.live, .conversation]))).map(\.id))
        #expect(Set(others.records.map(\.type)) == [.live, .conversation])
        _ = (t1, t2, t3)
    }

    @Test func deletedChannelsShowOnlyWhenIncluded() async throws {
        let fixture = try await ClientFixture(realtime: false)
        try await fixture.server.deleteChannel("keynote")
        let visible = fixture.client.channels.channels()
        let all = fixture.client.channels.channels(includeDeleted: true)
        let (visibleLog, t1) = visible.record()
        let (allLog, t2) = all.record()
        let shown = try await visible.next(in: visibleLog) { $0.dataStatus == .fresh }
        let everything = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        #expect(shown.records.map(\.id) == (try await fixture.server.records(.channels())).map(\.id))
        #expect(!shown.records.contains { $0.id == "keynote" })
        #expect(everything.records.map(\.id) == (try await fixture.server.records(.channels(includeDeleted: true))).map(\.id))
        #expect(everything.records.first { $0.id == "keynote" }?.isDeleted == true)
        _ = (t1, t2)
    }

    @Test func pagingChannelsReachesEveryChannelOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let expected = try await fixture.server.records(.channels())
        let channels = fixture.client.channels.channels(pageSize: 3)
        let (log, token) = channels.record()
        let pages = try await channels.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [3, 4])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        _ = token
    }

    @Test func anotherUsersMessageMovesItsChannelToTheTop() async throws {
        let fixture = try await ClientFixture()
        let channels = fixture.client.channels.channels()
        let conversations = fixture.client.channels.channels(types: [.conversation])
        let (log, token) = channels.record()
        let (conversationLog, conversationToken) = conversations.record()
        let fresh = try await channels.next(in: log) { $0.dataStatus == .fresh }
        _ = try await conversations.next(in: conversationLog) { $0.dataStatus == .fresh }
        #expect(fresh.records.first?.id != "general")
        _ = try await fixture.server.perform(.sendText("bump", channelId: "general", clientRequestId: "b1"), as: "tim")
        let moved = try await channels.next(in: log) { $0.records.first?.id == "general" }
        #expect(moved.records.first?.lastMessageText == "bump")
        #expect(Set(moved.records.map(\.id)) == Set(fresh.records.map(\.id)))
        try await fixture.settle()
        #expect(!conversationLog.all.contains { $0.records.contains { $0.id == "general" } })
        _ = (token, conversationToken)
    }

    @Test func joiningShowsTheMembershipAtOnceThenSyncs() async throws {
        let fixture = try await ClientFixture(userId: "margaret")
        let members = fixture.client.channelMembers.members(channelId: "random")
        let channel = fixture.client.channels.get(id: "random")
        let (log, token) = members.record()
        let (channelLog, channelToken) = channel.record()
        let fresh = try await members.next(in: log) { $0.dataStatus == .fresh }
        let before = try #require(try await channel.next(in: channelLog) { $0.dataStatus == .fresh }.snapshot)
        log.skipUnread()
        try await fixture.client.channels.join("random")
        let pending = try await log.next()
        #expect(pending.records.last?.userId == "margaret")
        #expect(pending.records.last?.syncState == .syncing)
        let synced = try await members.next(in: log) { $0.records.last?.syncState == .synced }
        #expect(synced.records.count == fresh.records.count + 1)
        #expect(synced.records.last == (try await fixture.server.record(ChannelMember.self, id: "random:margaret")))
        _ = try await channel.next(in: channelLog) { $0.snapshot?.memberCount == before.memberCount + 1 }
        _ = (token, channelToken)
    }

    @Test func aJoinTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture(userId: "margaret")
        let members = fixture.client.channelMembers.members(channelId: "random")
        let (log, token) = members.record()
        _ = try await members.next(in: log) { $0.dataStatus == .fresh }
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.channels.join("random") }
        let failed = try await members.next(in: log) { $0.records.last?.syncState == .error }
        #expect(failed.records.last?.userId == "margaret")
        _ = token
    }

    @Test func leavingHidesTheMembershipAndIsRestoredWhenTheServerFails() async throws {
        let fixture = try await ClientFixture()
        let members = fixture.client.channelMembers.members(channelId: "random")
        let (log, token) = members.record()
        let fresh = try await members.next(in: log) { $0.dataStatus == .fresh }
        let mine = try #require(fresh.records.first { $0.userId == "ada" })
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.channels.leave("random") }
        #expect(!(try await log.next()).records.contains(mine))
        let restored = try await members.next(in: log) { $0.records.contains(mine) }
        #expect(restored.records == fresh.records)

        fixture.server.resetFailures()
        log.skipUnread()
        try await fixture.client.channels.leave("random")
        #expect(!(try await log.next()).records.contains(mine))
        try await fixture.settle()
        #expect(!members.allObjects().contains(mine))
        #expect(try await fixture.server.record(ChannelMember.self, id: mine.id) == nil)
        _ = token
    }
}
