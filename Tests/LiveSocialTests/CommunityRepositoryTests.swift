import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct CommunityRepositoryTests {
    @Test func getShowsTheCachedCommunityFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let warm = fixture.client.communities.get(id: "hiking")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.joinCommunity(id: "hiking"), as: "linus")

        let community = fixture.client.communities.get(id: "hiking")
        let (log, token) = community.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == warmed.snapshot)
        let fresh = try await community.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.memberCount == (warmed.snapshot?.memberCount ?? 0) + 1)
        #expect(fresh.snapshot == (try await fixture.server.record(Community.self, id: "hiking")))
        _ = (warmToken, token)
    }

    @Test func communitiesAreSortedAndFilteredAsAsked() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let byName = fixture.client.communities.communities()
        let newest = fixture.client.communities.communities(sortedBy: .newestFirst)
        let publicOnes = fixture.client.communities.communities(publicOnly: true)
        let withDeleted = fixture.client.communities.communities(includeDeleted: true)
        let (nameLog, t1) = byName.record()
        let (newestLog, t2) = newest.record()
        let (publicLog, t3) = publicOnes.record()
        let (deletedLog, t4) = withDeleted.record()
        let names = try await byName.next(in: nameLog) { $0.dataStatus == .fresh }
        let recent = try await newest.next(in: newestLog) { $0.dataStatus == .fresh }
        let open = try await publicOnes.next(in: publicLog) { $0.dataStatus == .fresh }
        let all = try await withDeleted.next(in: deletedLog) { $0.dataStatus == .fresh }
        #expect(names.records.map(\.id) == (try await fixture.server.records(.communities())).map(\.id))
        #expect(names.records.map(\.displayName) == ["Coffee Lovers", "Swift Developers", "Weekend Hikers"])
        #expect(recent.records.map(\.id) == (try await fixture.server.records(.communities(sortedBy: .newestFirst))).map(\.id))
        #expect(recent.records.map(\.id) == ["coffee", "hiking", "swift"])
        #expect(open.records.map(\.id) == (try await fixture.server.records(.communities(publicOnly: true))).map(\.id))
        #expect(open.records.map(\.id) == ["swift", "hiking"])
        #expect(all.records.map(\.id) == (try await fixture.server.records(.communities(includeDeleted: true))).map(\.id))
        _ = (t1, t2, t3, t4)
    }

    @Test func pagingCommunitiesReachesEveryCommunityOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let expected = try await fixture.server.records(.communities(sortedBy: .newestFirst))
        let communities = fixture.client.communities.communities(sortedBy: .newestFirst, pageSize: 1)
        let (log, token) = communities.record()
        let pages = try await communities.loadAllPages(in: log)
        #expect(pages.map(\.records.count).prefix(3) == [1, 2, 3])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        #expect(!communities.hasNext)
        _ = token
    }

    @Test func aNewCommunityArrivesInTheListsItMatches() async throws {
        let fixture = try await ClientFixture()
        let newest = fixture.client.communities.communities(sortedBy: .newestFirst)
        let publicOnes = fixture.client.communities.communities(publicOnly: true)
        let (newestLog, t1) = newest.record()
        let (publicLog, t2) = publicOnes.record()
        _ = try await newest.next(in: newestLog) { $0.dataStatus == .fresh }
        _ = try await publicOnes.next(in: publicLog) { $0.dataStatus == .fresh }
        try await fixture.server.createCommunity(id: "secret", displayName: "Secret Club", isPublic: false, ownerId: "tim")
        let live = try await newest.next(in: newestLog) { $0.records.first?.id == "secret" }
        #expect(live.change?.insertions == [0])
        try await fixture.settle()
        #expect(!publicLog.all.contains { $0.records.contains { $0.id == "secret" } })
        _ = (t1, t2)
    }

    @Test func joiningShowsAtOnceThenSyncsAndCounts() async throws {
        let fixture = try await ClientFixture(userId: "linus")
        let members = fixture.client.communityMembers.members(communityId: "hiking")
        let community = fixture.client.communities.get(id: "hiking")
        let (log, token) = members.record()
        let (communityLog, communityToken) = community.record()
        let fresh = try await members.next(in: log) { $0.dataStatus == .fresh }
        let before = try #require(try await community.next(in: communityLog) { $0.dataStatus == .fresh }.snapshot)
        log.skipUnread()
        try await fixture.client.communities.join("hiking")
        let pending = try await log.next()
        #expect(pending.records.last?.userId == "linus")
        #expect(pending.records.last?.syncState == .syncing)
        let synced = try await members.next(in: log) { $0.records.last?.syncState == .synced }
        #expect(synced.records.count == fresh.records.count + 1)
        #expect(synced.records.last == (try await fixture.server.record(CommunityMember.self, id: "hiking:linus")))
        _ = try await community.next(in: communityLog) { $0.snapshot?.memberCount == before.memberCount + 1 }
        _ = (token, communityToken)
    }

    @Test func aJoinTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture(userId: "linus")
        let members = fixture.client.communityMembers.members(communityId: "hiking")
        let (log, token) = members.record()
        _ = try await members.next(in: log) { $0.dataStatus == .fresh }
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.communities.join("hiking") }
        let failed = try await members.next(in: log) { $0.records.last?.syncState == .error }
        #expect(failed.records.last?.userId == "linus")
        #expect(try await fixture.server.record(CommunityMember.self, id: "hiking:linus") == nil)
        _ = token
    }

    @Test func leavingHidesTheMembershipAndIsRestoredWhenTheServerFails() async throws {
        let fixture = try await ClientFixture()
        let members = fixture.client.communityMembers.members(communityId: "hiking")
        let (log, token) = members.record()
        let fresh = try await members.next(in: log) { $0.dataStatus == .fresh }
        let mine = try #require(fresh.records.first { $0.userId == "ada" })
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.communities.leave("hiking") }
        #expect(!(try await log.next()).records.contains(mine))
        let restored = try await members.next(in: log) { $0.records.contains(mine) }
        #expect(restored.records == fresh.records)

        fixture.server.resetFailures()
        log.skipUnread()
        try await fixture.client.communities.leave("hiking")
        #expect(!(try await log.next()).records.contains(mine))
        try await fixture.settle()
        #expect(!members.allObjects().contains(mine))
        #expect(try await fixture.server.record(CommunityMember.self, id: mine.id) == nil)
        _ = token
    }
}
