import Foundation
import LiveData
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// A community's feed: the tabs, the posts newest first, switching, posting, paging and errors.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct FeedViewModelTests {
    /// A feed view model with its holders recorded.
    struct Feed {
        let model: FeedViewModel
        let tabs: Recording<[CommunityTab]>
        let posts: Recording<[PostRow]>
        let status: Recording<ScreenStatus>
        let hasMore: Recording<Bool>
    }

    private func openFeed(_ fixture: EnvironmentFixture, _ communityId: String = "swift") -> Feed {
        let model = FeedViewModel(communityId: communityId, environment: fixture.environment)
        return Feed(
            model: model, tabs: model.tabs.record(), posts: model.posts.record(), status: model.status.record(),
            hasMore: model.hasMore.record())
    }

    private func serverRows(_ fixture: EnvironmentFixture, _ communityId: String) async throws -> [PostRow] {
        try await fixture.server.records(.communityFeed(communityId: communityId)).map {
            PostRow(id: $0.id, author: $0.authorId, text: $0.text, commentCount: $0.commentCount,
                    reactionCount: $0.reactionCount, time: $0.createdAt)
        }
    }

    private func tabs(selected: String) -> [CommunityTab] {
        [("coffee", "Coffee Lovers"), ("swift", "Swift Developers"), ("hiking", "Weekend Hikers")].map {
            CommunityTab(id: $0.0, name: $0.1, isSelected: $0.0 == selected)
        }
    }

    @discardableResult
    private func waitFresh(_ feed: Feed) async throws -> ScreenStatus {
        try await feed.status.value { $0.source == .fresh && !$0.isLoading }
    }

    @Test func tabsListTheThreeCommunitiesByNameWithTheShownOneSelected() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        #expect(feed.model.communityId == "swift")
        #expect(feed.status.values.first == ScreenStatus(isLoading: true), "loading from the start")
        let shown = try await feed.tabs.value { $0.count == 3 }
        #expect(shown == tabs(selected: "swift"))
    }

    @Test func postsAreTheCommunitysNewestFirst() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        let expected = try await serverRows(fixture, "swift")
        #expect(!expected.isEmpty)
        #expect(feed.posts.latest == expected)
        #expect(zip(expected, expected.dropFirst()).allSatisfy { $0.time > $1.time })
        #expect(feed.status.latest == ScreenStatus(isLoading: false, source: .fresh))
        #expect(feed.hasMore.latest == false)
        for (index, row) in expected.enumerated() {
            #expect(feed.model.postId(at: index) == row.id)
        }
        #expect(feed.model.postId(at: expected.count) == nil)
    }

    @Test func selectingByIdShowsThatFeed() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        _ = try await feed.tabs.value { $0.count == 3 }

        #expect(feed.model.select("hiking"))
        #expect(feed.model.communityId == "hiking")
        #expect(feed.tabs.latest == tabs(selected: "hiking"))
        let expected = try await serverRows(fixture, "hiking")
        #expect(try await feed.posts.value { $0 == expected } == expected)
        #expect(Set(expected.map(\.id)).isDisjoint(with: try await serverRows(fixture, "swift").map(\.id)))
    }

    @Test func selectingByNumberCountsTabsFromOne() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        _ = try await feed.tabs.value { $0.count == 3 }
        #expect(feed.model.select("1"))
        #expect(feed.model.communityId == "coffee")
        #expect(feed.tabs.latest == tabs(selected: "coffee"))
        let coffee = try await serverRows(fixture, "coffee")
        _ = try await feed.posts.value { $0 == coffee }
        #expect(feed.model.select("3"))
        #expect(feed.model.communityId == "hiking")
    }

    @Test func selectingAnUnknownCommunityChangesNothing() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        _ = try await feed.tabs.value { $0.count == 3 }
        try await waitFresh(feed)
        let requests = fixture.server.requestCount
        let shown = feed.posts.latest
        for unknown in ["gardening", "0", "4", "-1"] {
            #expect(!feed.model.select(unknown), "\(unknown)")
        }
        #expect(feed.model.select("swift"), "the community already shown")
        #expect(feed.model.communityId == "swift")
        #expect(feed.tabs.latest == tabs(selected: "swift"))
        try await fixture.settle()
        #expect(feed.posts.latest == shown)
        #expect(fixture.server.requestCount == requests)
    }

    @Test func beforeTheCommunitiesArriveAnIdIsTakenAsGivenButANumberIsRefused() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        #expect(feed.tabs.latest == [], "the communities are not known yet")
        #expect(!feed.model.select("2"), "no community has a number yet")
        #expect(feed.model.select("hiking"), "'Before the communities have loaded, any id is taken as given'")
        #expect(feed.model.communityId == "hiking")
    }

    @Test func aPostShowsSyncingThenStored() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        let before = try #require(feed.posts.latest)
        fixture.server.setLatency(.seconds(1))
        let posting = feed.model.post("  Hello feed  ")

        let syncing = try #require(try await feed.posts.next { $0.first?.text == "Hello feed" }.first)
        #expect(syncing.isSyncing)
        #expect(syncing.author == "ada")
        #expect(feed.posts.latest?.dropFirst() == before[...], "the new post comes first")

        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await posting.value
        let expected = try await serverRows(fixture, "swift")
        #expect(expected.first?.text == "Hello feed")
        #expect(try await feed.posts.value { $0 == expected } == expected)
        #expect(feed.status.latest?.error == nil)
    }

    @Test func blankTextIsNotPosted() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        let requests = fixture.server.requestCount
        await feed.model.post("   ").value
        #expect(fixture.server.requestCount == requests)
    }

    /// The swift feed, fresh, after the server refused the post "doomed post".
    private func feedWithARefusedPost() async throws -> (EnvironmentFixture, Feed) {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await feed.model.post("doomed post").value
        return (fixture, feed)
    }

    @Test func aPostTheServerRefusesIsAnError() async throws {
        let (fixture, feed) = try await feedWithARefusedPost()
        #expect(feed.status.latest?.error == "not posted: server failure: writes are down")
        #expect(try await fixture.server.records(.communityFeed(communityId: "swift")).allSatisfy { $0.text != "doomed post" })
    }

    @Test
    func theErrorOfARefusedPostSurvivesTheNextDelivery() async throws {
        let (fixture, feed) = try await feedWithARefusedPost()
        #expect(feed.status.latest?.error == "not posted: server failure: writes are down")
        try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "live post"), as: "tim")
        _ = try await feed.posts.next { $0.contains { $0.text == "live post" } }
        #expect(feed.status.latest?.error == "not posted: server failure: writes are down",
                "another user's post is no reason to forget that this one was not posted")
    }

    @Test func aPostTheServerRefusedIsMarkedFailedNotShownAsStored() async throws {
        let (fixture, feed) = try await feedWithARefusedPost()
        try await fixture.settle()
        let rows = try #require(feed.posts.latest)
        let doomed = try #require(rows.first { $0.text == "doomed post" })
        #expect(doomed.isFailed && !doomed.isSyncing)
        #expect(rows.filter { !$0.isFailed } == (try await serverRows(fixture, "swift")), "every other row is the server's")
    }

    @Test func loadMoreBringsTheOlderPosts() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.unheard {
            for number in 1...25 {
                try await fixture.server.perform(
                    .createPost(targetType: .community, targetId: "coffee", text: "coffee post \(number)"), as: "alan")
            }
        }
        let expected = try await serverRows(fixture, "coffee")
        #expect(expected.count > 25)
        let feed = openFeed(fixture, "coffee")
        try await waitFresh(feed)
        #expect(feed.posts.latest == Array(expected.prefix(20)))
        #expect(feed.hasMore.latest == true)

        feed.model.loadMore()
        #expect(try await feed.posts.value { $0.count == expected.count } == expected)
        #expect(try await feed.hasMore.value { !$0 } == false)
    }

    @Test func aServerFailureWithNothingCachedIsAnErrorStatus() async throws {
        let fixture = try await EnvironmentFixture.make()
        fixture.server.failRequests([.fetchPage], message: "feeds are down")
        let feed = openFeed(fixture)
        let failed = try await feed.status.value { $0.error != nil }
        #expect(failed == ScreenStatus(isLoading: false, source: .nothing, error: "server failure: feeds are down"))
        #expect(feed.posts.latest == [])
        #expect(feed.model.postId(at: 0) == nil)
    }

    @Test func aClosedFeedDeliversNothingMore() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        feed.model.close()
        let deliveries = feed.posts.count
        try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "unseen"), as: "tim")
        try await fixture.settle()
        #expect(feed.posts.count == deliveries)
    }

    @Test func anotherUsersPostArrivesLive() async throws {
        let fixture = try await EnvironmentFixture.make()
        let feed = openFeed(fixture)
        try await waitFresh(feed)
        try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "live post"), as: "tim")
        let shown = try await feed.posts.next { $0.first?.text == "live post" }
        #expect(shown.first?.author == "tim")
        #expect(shown == (try await serverRows(fixture, "swift")))
    }
}
