import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct FollowRepositoryTests {
    @Test func getShowsTheCachedFollowFirstThenTheServersAnswer() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let id = Follow.makeID(followerId: "ada", followeeId: "alan")
        let warm = fixture.client.follows.get(followerId: "ada", followeeId: "alan")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        #expect(warmed.snapshot == (try await fixture.server.record(Follow.self, id: id)))
        _ = try await fixture.server.perform(.unfollow(userId: "alan"), as: "ada")

        let follow = fixture.client.follows.get(followerId: "ada", followeeId: "alan")
        let (log, token) = follow.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == warmed.snapshot)
        let answered = try await follow.next(in: log) { $0.loadingStatus == .loaded }
        #expect(answered.dataStatus == .notExist)
        #expect(answered.snapshot == nil)
        _ = (warmToken, token)
    }

    @Test func followersAndFollowingMatchTheServer() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let followers = fixture.client.follows.followers(of: "ada")
        let following = fixture.client.follows.following(of: "ada")
        let pending = fixture.client.follows.followers(of: "ada", status: .pending)
        let any = fixture.client.follows.followers(of: "ada", status: nil)
        let (followersLog, t1) = followers.record()
        let (followingLog, t2) = following.record()
        let (pendingLog, t3) = pending.record()
        let (anyLog, t4) = any.record()
        let by = try await followers.next(in: followersLog) { $0.dataStatus == .fresh }
        let of = try await following.next(in: followingLog) { $0.dataStatus == .fresh }
        let none = try await pending.next(in: pendingLog) { $0.loadingStatus == .loaded }
        let all = try await any.next(in: anyLog) { $0.dataStatus == .fresh }
        #expect(by.records.map(\.id) == (try await fixture.server.records(.followers(of: "ada"))).map(\.id))
        #expect(by.records.map(\.followerId) == ["tim", "margaret"])
        #expect(by.records.allSatisfy { $0.followeeId == "ada" && $0.status == .accepted })
        #expect(of.records.map(\.id) == (try await fixture.server.records(.following(of: "ada"))).map(\.id))
        #expect(of.records.allSatisfy { $0.followerId == "ada" })
        #expect(of.records.map(\.createdAt) == of.records.map(\.createdAt).sorted(by: >))
        #expect(none.records.isEmpty)
        #expect(try await fixture.server.records(.followers(of: "ada", status: .pending)).isEmpty)
        #expect(all.records.map(\.id) == (try await fixture.server.records(.followers(of: "ada", status: nil))).map(\.id))
        _ = (t1, t2, t3, t4)
    }

    @Test func pagingFollowersReachesEveryFollowerOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        for follower in ["alan", "grace", "linus"] {
            _ = try await fixture.server.perform(.follow(userId: "ada"), as: follower)
        }
        let expected = try await fixture.server.records(.followers(of: "ada"))
        #expect(expected.count == 5)
        let followers = fixture.client.follows.followers(of: "ada", pageSize: 2)
        let (log, token) = followers.record()
        let pages = try await followers.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [2, 4, 5])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        _ = token
    }

    @Test func followingShowsAtOnceThenSyncsAndCounts() async throws {
        let fixture = try await ClientFixture()
        let following = fixture.client.follows.following(of: "ada")
        let linus = fixture.client.users.get(id: "linus")
        let (log, token) = following.record()
        let (linusLog, linusToken) = linus.record()
        let fresh = try await following.next(in: log) { $0.dataStatus == .fresh }
        let before = try #require(try await linus.next(in: linusLog) { $0.dataStatus == .fresh }.snapshot)
        log.skipUnread()
        try await fixture.client.follows.follow("linus")
        let pending = try await log.next()
        #expect(pending.records.first?.followeeId == "linus")
        #expect(pending.records.first?.syncState == .syncing)
        #expect(pending.change?.insertions == [0])
        let synced = try await following.next(in: log) { $0.records.first?.syncState == .synced }
        #expect(synced.records.first == (try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus"))))
        #expect(synced.records.count == fresh.records.count + 1)
        _ = try await linus.next(in: linusLog) { $0.snapshot?.followerCount == before.followerCount + 1 }
        _ = (token, linusToken)
    }

    @Test func aFollowTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture()
        let following = fixture.client.follows.following(of: "ada")
        let (log, token) = following.record()
        _ = try await following.next(in: log) { $0.dataStatus == .fresh }
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.follows.follow("linus") }
        let failed = try await following.next(in: log) { $0.records.first?.syncState == .error }
        #expect(failed.records.first?.followeeId == "linus")
        _ = token
    }

    @Test func unfollowingHidesAtOnceAndIsRestoredWhenTheServerFails() async throws {
        let fixture = try await ClientFixture()
        let following = fixture.client.follows.following(of: "ada")
        let (log, token) = following.record()
        let fresh = try await following.next(in: log) { $0.dataStatus == .fresh }
        let alan = try #require(fresh.records.first { $0.followeeId == "alan" })
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) { try await fixture.client.follows.unfollow("alan") }
        let hidden = try await log.next()
        #expect(!hidden.records.contains(alan))
        let restored = try await following.next(in: log) { $0.records.contains(alan) }
        #expect(restored.records == fresh.records)

        fixture.server.resetFailures()
        log.skipUnread()
        try await fixture.client.follows.unfollow("alan")
        let gone = try await log.next()
        #expect(!gone.records.contains(alan))
        try await fixture.settle()
        #expect(!following.allObjects().contains(alan))
        #expect(try await fixture.server.record(Follow.self, id: alan.id) == nil)
        _ = token
    }

    @Test func anotherUsersFollowArrivesInTheMatchingListsOnly() async throws {
        let fixture = try await ClientFixture()
        let linusFollowers = fixture.client.follows.followers(of: "linus")
        let timFollowers = fixture.client.follows.followers(of: "tim")
        let (linusLog, t1) = linusFollowers.record()
        let (timLog, t2) = timFollowers.record()
        let linus = try await linusFollowers.next(in: linusLog) { $0.dataStatus == .fresh }
        let tim = try await timFollowers.next(in: timLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.follow(userId: "linus"), as: "margaret")
        let live = try await linusFollowers.next(in: linusLog) { $0.records.first?.followerId == "margaret" }
        #expect(live.change?.insertions == [0])
        #expect(live.records.count == linus.records.count + 1)
        _ = try await fixture.server.perform(.follow(userId: "tim"), as: "ada")
        let other = try await timFollowers.next(in: timLog) { $0.records.first?.followerId == "ada" }
        #expect(other.records.count == tim.records.count + 1)
        #expect(other.records.allSatisfy { $0.followeeId == "tim" })
        #expect(linusFollowers.allObjects().allSatisfy { $0.followeeId == "linus" })
        _ = (t1, t2)
    }
}
