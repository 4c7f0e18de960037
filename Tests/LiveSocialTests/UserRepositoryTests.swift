import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct UserRepositoryTests {
    @Test func getShowsTheCachedUserFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let warm = fixture.client.users.get(id: "alan")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        #expect(warmed.snapshot == (try await fixture.server.record(User.self, id: "alan")))
        _ = try await fixture.server.perform(.updateUser(displayName: "Alan M. Turing", about: nil, avatarURL: nil), as: "alan")

        let user = fixture.client.users.get(id: "alan")
        let (log, token) = user.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot?.displayName == "Alan Turing")
        let fresh = try await user.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.displayName == "Alan M. Turing")
        #expect(fresh.snapshot == (try await fixture.server.record(User.self, id: "alan")))
        _ = (warmToken, token)
    }

    @Test func meIsTheSignedInUser() async throws {
        let fixture = try await ClientFixture(userId: "grace", realtime: false)
        let me = fixture.client.users.me()
        let (log, token) = me.record()
        let fresh = try await me.next(in: log) { $0.dataStatus == .fresh }
        #expect(me.id == "grace")
        #expect(fresh.snapshot?.displayName == "Grace Hopper")
        _ = token
    }

    @Test func anUnknownUserDoesNotExist() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let user = fixture.client.users.get(id: "nobody")
        let (log, token) = user.record()
        let answered = try await user.next(in: log) { $0.loadingStatus == .loaded }
        #expect(answered.dataStatus == .notExist)
        #expect(answered.snapshot == nil)
        _ = token
    }

    @Test func aProfileUpdateShowsAtOnceThenTheServersCopy() async throws {
        let fixture = try await ClientFixture()
        let me = fixture.client.users.me()
        let (log, token) = me.record()
        let fresh = try await me.next(in: log) { $0.dataStatus == .fresh }
        log.skipUnread()
        let updated = try await fixture.client.users.updateProfile(about: "Poet of science")
        let immediate = try await log.next()
        #expect(immediate.snapshot?.about == "Poet of science")
        #expect(immediate.snapshot?.displayName == fresh.snapshot?.displayName)
        let server = try await fixture.server.record(User.self, id: "ada")
        #expect(updated == server)
        _ = try await me.next(in: log) { $0.snapshot == server }
        _ = token
    }

    @Test func aRefusedProfileUpdateLeavesTheServersCopy() async throws {
        let fixture = try await ClientFixture()
        let me = fixture.client.users.me()
        let (log, token) = me.record()
        let fresh = try await me.next(in: log) { $0.dataStatus == .fresh }
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) {
            try await fixture.client.users.updateProfile(displayName: "Countess")
        }
        let shown = try await log.next()
        #expect(shown.snapshot?.displayName == "Countess")
        let restored = try await me.next(in: log) { $0.snapshot?.displayName != "Countess" }
        #expect(restored.snapshot == fresh.snapshot)
        try await fixture.settle()
        #expect(me.snapshot == (try await fixture.server.record(User.self, id: "ada")))
        _ = token
    }

    @Test func followerCountsUpdateThroughRealTime() async throws {
        let fixture = try await ClientFixture()
        let linus = fixture.client.users.get(id: "linus")
        let (log, token) = linus.record()
        let fresh = try await linus.next(in: log) { $0.dataStatus == .fresh }
        let before = try #require(fresh.snapshot)
        _ = try await fixture.server.perform(.follow(userId: "linus"), as: "margaret")
        let followed = try await linus.next(in: log) { $0.snapshot?.followerCount == before.followerCount + 1 }
        #expect(followed.snapshot?.followingCount == before.followingCount)
        _ = try await fixture.server.perform(.unfollow(userId: "linus"), as: "margaret")
        let unfollowed = try await linus.next(in: log) { $0.snapshot?.followerCount == before.followerCount }
        #expect(unfollowed.snapshot == (try await fixture.server.record(User.self, id: "linus")))
        _ = token
    }
}
