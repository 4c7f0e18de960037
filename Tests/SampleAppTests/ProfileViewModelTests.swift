import Foundation
import LiveData
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// A profile: its summary, its followers and following, and following or unfollowing.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ProfileViewModelTests {
    /// A profile view model with its holders recorded.
    struct Profile {
        let model: ProfileViewModel
        let summary: Recording<ProfileSummary>
        let followers: Recording<[String]>
        let following: Recording<[String]>
        let status: Recording<ScreenStatus>
    }

    private func open(_ fixture: EnvironmentFixture, _ userId: String) -> Profile {
        let model = ProfileViewModel(userId: userId, environment: fixture.environment)
        return Profile(
            model: model, summary: model.summary.record(), followers: model.followers.record(),
            following: model.following.record(), status: model.status.record())
    }

    private func serverSummary(_ fixture: EnvironmentFixture, _ userId: String) async throws -> ProfileSummary {
        let user = try #require(try await fixture.server.record(User.self, id: userId))
        let followed = try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: userId))
        return ProfileSummary(
            userId: user.id, displayName: user.displayName, about: user.about, followerCount: user.followerCount,
            followingCount: user.followingCount, isMe: userId == "ada", isFollowed: followed != nil)
    }

    /// Waits until the summary and both lists are the server's.
    @discardableResult
    private func waitLoaded(_ fixture: EnvironmentFixture, _ profile: Profile) async throws -> ProfileSummary {
        let userId = profile.model.userId
        let summary = try await serverSummary(fixture, userId)
        try await profile.summary.value { $0 == summary }
        try await profile.status.value { $0.source == .fresh && !$0.isLoading }
        let followers = try await fixture.server.records(.followers(of: userId)).map(\.followerId)
        let following = try await fixture.server.records(.following(of: userId)).map(\.followeeId)
        try await profile.followers.value { $0 == followers }
        try await profile.following.value { $0 == following }
        return summary
    }

    @Test func anotherUsersProfileShowsTheirCountsAndWhetherTheUserFollowsThem() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        let summary = try await waitLoaded(fixture, linus)
        #expect(summary.displayName == "Linus Torvalds")
        #expect(summary.about == "Hi, I'm Linus.")
        #expect(!summary.isMe)
        #expect(!summary.isFollowed, "ada follows alan and grace")
        #expect(summary.followerCount == 2)
        #expect(summary.followingCount == 2)
        #expect(Set(linus.followers.latest ?? []) == ["alan", "grace"])
        #expect(Set(linus.following.latest ?? []) == ["margaret", "tim"])
        #expect(linus.status.latest == ScreenStatus(isLoading: false, source: .fresh))

        let alan = open(fixture, "alan")
        #expect(try await waitLoaded(fixture, alan).isFollowed)
    }

    @Test func theUsersOwnProfileIsMine() async throws {
        let fixture = try await EnvironmentFixture.make()
        let ada = open(fixture, "ada")
        let summary = try await waitLoaded(fixture, ada)
        #expect(summary.isMe)
        #expect(!summary.isFollowed)
        #expect(Set(ada.followers.latest ?? []) == ["margaret", "tim"])
        #expect(Set(ada.following.latest ?? []) == ["alan", "grace"])
    }

    @Test func toggleFollowFollowsThenUnfollows() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        let before = try await waitLoaded(fixture, linus)

        await linus.model.toggleFollow().value
        let followed = try await linus.summary.value { $0.isFollowed && $0.followerCount == before.followerCount + 1 }
        #expect(followed == (try await serverSummary(fixture, "linus")))
        #expect(try await linus.followers.value { $0.contains("ada") }.first == "ada", "newest first")
        #expect(try await fixture.server.record(User.self, id: "ada")?.followingCount == 3)

        await linus.model.toggleFollow().value
        let unfollowed = try await linus.summary.value { !$0.isFollowed && $0.followerCount == before.followerCount }
        #expect(unfollowed == before)
        #expect(unfollowed == (try await serverSummary(fixture, "linus")))
        _ = try await linus.followers.value { !$0.contains("ada") }
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) == nil)
        #expect(linus.status.latest?.error == nil)
    }

    @Test func twoTogglesInARowReturnAtOnceAndFollowThenUnfollowInThatOrder() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        let before = try await waitLoaded(fixture, linus)
        fixture.server.setLatency(.seconds(1))
        let follow = linus.model.toggleFollow()
        let unfollow = linus.model.toggleFollow()
        // The follow shows before the server answers; the unfollow waits for the follow's answer.
        try await linus.summary.value { $0.isFollowed }
        await fixture.clock.waitForSleepers(1)
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) == nil)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await follow.value
        await unfollow.value
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) == nil,
                "followed, then unfollowed")
        #expect(try await linus.summary.value { !$0.isFollowed && $0.followerCount == before.followerCount } == before)
        #expect(linus.status.latest?.error == nil, "neither toggle failed")

        // Once both are done, the next toggle starts from what the screen shows: it follows.
        await linus.model.toggleFollow().value
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) != nil)
    }

    @Test func toggleFollowOnTheUsersOwnProfileDoesNothing() async throws {
        let fixture = try await EnvironmentFixture.make()
        let ada = open(fixture, "ada")
        let summary = try await waitLoaded(fixture, ada)
        let requests = fixture.server.requestCount
        let deliveries = ada.summary.count
        await ada.model.toggleFollow().value
        try await fixture.settle()
        #expect(fixture.server.requestCount == requests)
        #expect(ada.summary.count == deliveries)
        #expect(ada.summary.latest == summary)
    }

    @Test func aFollowTheServerRefusesIsAnError() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        try await waitLoaded(fixture, linus)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await linus.model.toggleFollow().value
        #expect(linus.status.latest?.error == "follow not changed: server failure: writes are down")
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) == nil)
        try await fixture.settle()
        #expect(linus.status.latest?.error == "follow not changed: server failure: writes are down", "the error stays")
    }

    @Test
    func aFollowTheServerRefusedIsNotShownAsFollowedAndCanBeRetried() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        let before = try await waitLoaded(fixture, linus)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await linus.model.toggleFollow().value
        try await fixture.settle()
        #expect(linus.summary.latest == before, "ada does not follow linus")
        #expect(linus.followers.latest?.contains("ada") == false)

        fixture.server.resetFailures()
        await linus.model.toggleFollow().value
        #expect(try await fixture.server.record(Follow.self, id: Follow.makeID(followerId: "ada", followeeId: "linus")) != nil,
                "the retry follows")
        #expect(linus.status.latest?.error == nil)
    }

    @Test func aFollowErrorOutlastsANewDeliveryOfTheProfile() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        try await waitLoaded(fixture, linus)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await linus.model.toggleFollow().value
        fixture.server.resetFailures()
        _ = try await fixture.server.perform(.updateUser(displayName: nil, about: "Kernel.", avatarURL: nil), as: "linus")
        try await linus.summary.value { $0.about == "Kernel." }
        #expect(linus.status.latest?.error == "follow not changed: server failure: writes are down")
    }

    @Test func userIdAtIndexCountsFollowersThenFollowing() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        try await waitLoaded(fixture, linus)
        let people = try #require(linus.followers.latest) + (try #require(linus.following.latest))
        #expect(people.count == 4)
        for (index, id) in people.enumerated() {
            #expect(linus.model.userId(at: index) == id)
        }
        #expect(linus.model.userId(at: 4) == nil)
        #expect(linus.model.userId(at: -1) == nil)
    }

    @Test func aClosedProfileDeliversNothingMore() async throws {
        let fixture = try await EnvironmentFixture.make()
        let linus = open(fixture, "linus")
        try await waitLoaded(fixture, linus)
        linus.model.close()
        let counts = (linus.summary.count, linus.followers.count)
        try await fixture.server.perform(.follow(userId: "linus"), as: "tim")
        try await fixture.settle()
        #expect(linus.summary.count == counts.0)
        #expect(linus.followers.count == counts.1)
    }
}
