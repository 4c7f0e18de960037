import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct CommunityMemberRepositoryTests {
    @Test func getShowsTheCachedMembershipFirstThenTheServersAnswer() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let warm = fixture.client.communityMembers.get(communityId: "swift", userId: "tim")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        #expect(warmed.snapshot == (try await fixture.server.record(CommunityMember.self, id: "swift:tim")))
        _ = try await fixture.server.perform(.leaveCommunity(id: "swift"), as: "tim")

        let member = fixture.client.communityMembers.get(communityId: "swift", userId: "tim")
        let (log, token) = member.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == warmed.snapshot)
        let answered = try await member.next(in: log) { $0.loadingStatus == .loaded }
        #expect(answered.dataStatus == .notExist)
        _ = (warmToken, token)
    }

    @Test func membersAreEarliestJoinedFirstAndFilteredByRole() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let all = fixture.client.communityMembers.members(communityId: "swift")
        let admins = fixture.client.communityMembers.members(communityId: "swift", roles: [.admin])
        let plain = fixture.client.communityMembers.members(communityId: "swift", roles: [.member, .moderator])
        let (allLog, t1) = all.record()
        let (adminsLog, t2) = admins.record()
        let (plainLog, t3) = plain.record()
        let every = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        let admin = try await admins.next(in: adminsLog) { $0.dataStatus == .fresh }
        let members = try await plain.next(in: plainLog) { $0.dataStatus == .fresh }
        #expect(every.records.map(\.id) == (try await fixture.server.records(.communityMembers(communityId: "swift"))).map(\.id))
        #expect(every.records.map(\.joinedAt) == every.records.map(\.joinedAt).sorted())
        #expect(every.records.first?.userId == "ada")
        #expect(admin.records.map(\.userId) == ["ada"])
        #expect(admin.records.map(\.id) == (try await fixture.server.records(.communityMembers(communityId: "swift", roles: [.admin]))).map(\.id))
        #expect(members.records.map(\.id) == (try await fixture.server.records(.communityMembers(communityId: "swift", roles: [.member, .moderator]))).map(\.id))
        #expect(members.records.count == every.records.count - 1)
        #expect(members.records.allSatisfy { $0.role == .member })
        _ = (t1, t2, t3)
    }

    @Test func pagingMembersReachesEveryMemberOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let expected = try await fixture.server.records(.communityMembers(communityId: "swift"))
        #expect(expected.count == 5)
        let members = fixture.client.communityMembers.members(communityId: "swift", pageSize: 2)
        let (log, token) = members.record()
        let pages = try await members.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [2, 4, 5])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        _ = token
    }

    @Test func anotherUsersJoinArrivesInThatCommunitysMembersOnly() async throws {
        let fixture = try await ClientFixture()
        let hiking = fixture.client.communityMembers.members(communityId: "hiking")
        let coffee = fixture.client.communityMembers.members(communityId: "coffee")
        let (hikingLog, t1) = hiking.record()
        let (coffeeLog, t2) = coffee.record()
        let before = try await hiking.next(in: hikingLog) { $0.dataStatus == .fresh }
        _ = try await coffee.next(in: coffeeLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.joinCommunity(id: "hiking"), as: "linus")
        let joined = try await hiking.next(in: hikingLog) { $0.records.last?.userId == "linus" }
        #expect(joined.change?.insertions == [before.records.count])
        _ = try await fixture.server.perform(.joinCommunity(id: "coffee"), as: "alan")
        let other = try await coffee.next(in: coffeeLog) { $0.records.last?.userId == "alan" }
        #expect(!other.records.contains { $0.userId == "linus" })
        #expect(hiking.allObjects().allSatisfy { $0.communityId == "hiking" })
        _ = try await fixture.server.perform(.leaveCommunity(id: "hiking"), as: "linus")
        let left = try await hiking.next(in: hikingLog) { !$0.records.contains { $0.userId == "linus" } }
        #expect(left.records == before.records)
        _ = (t1, t2)
    }
}
