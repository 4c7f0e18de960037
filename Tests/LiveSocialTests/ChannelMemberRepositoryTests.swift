import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ChannelMemberRepositoryTests {
    @Test func getShowsTheCachedMembershipFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let warm = fixture.client.channelMembers.get(channelId: "general", userId: "tim")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        #expect(warmed.snapshot?.membership == .member)
        try await fixture.server.ban("tim", fromChannel: "general")

        let member = fixture.client.channelMembers.get(channelId: "general", userId: "tim")
        let (log, token) = member.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == warmed.snapshot)
        let fresh = try await member.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.membership == .banned)
        _ = (warmToken, token)
    }

    @Test func membersAreEarliestJoinedFirstAndFilteredByRoleAndMembership() async throws {
        let fixture = try await ClientFixture(realtime: false)
        try await fixture.server.ban("tim", fromChannel: "general")
        let current = fixture.client.channelMembers.members(channelId: "general")
        let admins = fixture.client.channelMembers.members(channelId: "general", roles: [.admin])
        let banned = fixture.client.channelMembers.members(channelId: "general", memberships: [.banned])
        let everyone = fixture.client.channelMembers.members(channelId: "general", memberships: nil)
        let (currentLog, t1) = current.record()
        let (adminsLog, t2) = admins.record()
        let (bannedLog, t3) = banned.record()
        let (everyoneLog, t4) = everyone.record()
        let members = try await current.next(in: currentLog) { $0.dataStatus == .fresh }
        let admin = try await admins.next(in: adminsLog) { $0.dataStatus == .fresh }
        let bans = try await banned.next(in: bannedLog) { $0.dataStatus == .fresh }
        let all = try await everyone.next(in: everyoneLog) { $0.dataStatus == .fresh }
        #expect(members.records.map(\.id) == (try await fixture.server.records(.channelMembers(channelId: "general"))).map(\.id))
        #expect(!members.records.contains { $0.userId == "tim" })
        #expect(members.records.map(\.joinedAt) == members.records.map(\.joinedAt).sorted())
        #expect(admin.records.map(\.id) == (try await fixture.server.records(.channelMembers(channelId: "general", roles: [.admin]))).map(\.id))
        #expect(admin.records.map(\.userId) == ["ada"])
        #expect(bans.records.map(\.userId) == ["tim"])
        #expect(bans.records.map(\.id) == (try await fixture.server.records(.channelMembers(channelId: "general", memberships: [.banned]))).map(\.id))
        #expect(all.records.map(\.id) == (try await fixture.server.records(.channelMembers(channelId: "general", memberships: nil))).map(\.id))
        #expect(all.records.count == members.records.count + 1)
        _ = (t1, t2, t3, t4)
    }

    @Test func pagingMembersReachesEveryMemberOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let expected = try await fixture.server.records(.channelMembers(channelId: "general"))
        #expect(expected.count == 6)
        let members = fixture.client.channelMembers.members(channelId: "general", pageSize: 4)
        let (log, token) = members.record()
        let pages = try await members.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [4, 6])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        _ = token
    }

    @Test func anotherUsersJoinArrivesInThatChannelsMembersOnly() async throws {
        let fixture = try await ClientFixture()
        let random = fixture.client.channelMembers.members(channelId: "random")
        let conversation = fixture.client.channelMembers.members(channelId: "ada-alan")
        let (randomLog, t1) = random.record()
        let (conversationLog, t2) = conversation.record()
        let before = try await random.next(in: randomLog) { $0.dataStatus == .fresh }
        _ = try await conversation.next(in: conversationLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.joinChannel(id: "random"), as: "tim")
        let joined = try await random.next(in: randomLog) { $0.records.last?.userId == "tim" }
        #expect(joined.change?.insertions == [before.records.count])
        // A private channel is not joined by id: its members are added.
        _ = try await fixture.server.addMember("grace", toChannel: "ada-alan")
        let other = try await conversation.next(in: conversationLog) { $0.records.last?.userId == "grace" }
        #expect(!other.records.contains { $0.userId == "tim" })
        #expect(random.allObjects().allSatisfy { $0.channelId == "random" })
        _ = (t1, t2)
    }
}
