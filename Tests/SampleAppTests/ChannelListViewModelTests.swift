import Foundation
import LiveData
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// The channel list: cached then fresh rows, unread counts from the read markers, real-time
/// changes, the change-log catch-up and errors.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ChannelListViewModelTests {
    /// The rows the server's channels make, most recently active first, with no markers.
    private func expectedRows(_ fixture: EnvironmentFixture, markers: [String: Int] = [:]) async throws -> [ChannelRow] {
        try await fixture.server.records(.channels()).map { channel in
            ChannelRow(
                id: channel.id, name: channel.displayName,
                unreadCount: max(0, channel.messageCount - (markers[channel.id] ?? 0)),
                lastMessage: channel.lastMessageText, lastActivityAt: channel.lastActivityAt)
        }
    }

    @Test func loadListsEveryChannelMostRecentlyActiveFirstWithUnreadCountsAndLastMessages() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        let status = list.status.record()
        #expect(rows.values == [[]])
        #expect(status.values == [ScreenStatus()])

        await list.load().value
        let expected = try await expectedRows(fixture)
        #expect(expected.count == 4)
        #expect(Set(expected.map(\.id)) == ["general", "random", "keynote", "ada-alan"])
        #expect(rows.latest == expected)
        #expect(expected.allSatisfy { $0.unreadCount > 0 && $0.lastMessage != nil })
        #expect(zip(expected, expected.dropFirst()).allSatisfy { $0.lastActivityAt >= $1.lastActivityAt })
        #expect(status.values.first == ScreenStatus())
        #expect(status.values.contains { $0?.isLoading == true && $0?.source == ScreenStatus.Source.nothing },
                "loading before anything shows")
        #expect(!status.values.contains { $0?.source == .local }, "an empty cache has nothing local to show")
        #expect(status.latest == ScreenStatus(isLoading: false, source: .fresh))
        #expect(list.hasMore.data == false)
    }

    @Test func loadShowsTheCachedRowsFirstThenTheServersRows() async throws {
        let folder = try TemporaryDirectory()
        let cache = folder.file("cache.sqlite")
        let first = try await EnvironmentFixture.make(cache: .file(cache))
        let warm = ChannelListViewModel(environment: first.environment)
        let warmRows = warm.rows.record()
        await warm.load().value
        let cachedRows = try #require(warmRows.latest)
        warm.close()
        first.environment.shutdown()
        await first.client.store.close()

        // The server changes while the app is closed.
        try await first.say("written while you were away", in: "random", as: "grace")

        let second = try await EnvironmentFixture.make(server: first.server, clock: first.clock, cache: .file(cache))
        let list = ChannelListViewModel(environment: second.environment)
        let rows = list.rows.record()
        let status = list.status.record()
        second.server.setLatency(.seconds(1))
        let loading = list.load()

        let shown = try await rows.next { !$0.isEmpty }
        #expect(shown == cachedRows, "the cached rows show at once")
        await second.clock.waitForSleepers(1)
        #expect(status.latest == ScreenStatus(isLoading: true, source: .local), "local while the server is asked")
        second.server.setLatency(.zero)
        second.clock.advance(by: .seconds(1))
        await loading.value

        let fresh = try await expectedRows(second)
        #expect(rows.latest == fresh)
        #expect(fresh.first?.id == "random")
        #expect(fresh.first?.lastMessage == "written while you were away")
        #expect(status.latest == ScreenStatus(isLoading: false, source: .fresh))
        let sources = status.values.compactMap { $0?.source }
        let steps = zip(sources, sources.dropFirst()).filter { $0 != $1 }.map(\.1)
        #expect([sources[0]] + steps == [.nothing, .local, .fresh], "loading, then local, then fresh")
    }

    @Test func readMarkersSetTheUnreadCounts() async throws {
        let fixture = try await EnvironmentFixture.make()
        let general = try await fixture.serverChannel("general")
        fixture.readMarkers.markRead("random", messageCount: 1_000)
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        await list.load().value
        #expect(rows.latest == (try await expectedRows(fixture, markers: ["random": 1_000])))
        #expect(rows.latest?.first { $0.id == "random" }?.unreadCount == 0, "never below zero")

        fixture.readMarkers.markRead("general", messageCount: general.messageCount - 2)
        #expect(rows.latest?.first { $0.id == "general" }?.unreadCount == 2)
        fixture.readMarkers.markRead("general", messageCount: general.messageCount)
        #expect(rows.latest?.first { $0.id == "general" }?.unreadCount == 0)
        #expect(rows.latest == (try await expectedRows(
            fixture, markers: ["random": 1_000, "general": general.messageCount])))
    }

    @Test func rowsFollowTheMarkersOnlyWhileObserved() async throws {
        let fixture = try await EnvironmentFixture.make()
        let general = try await fixture.serverChannel("general")
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        await list.load().value
        rows.stop()
        fixture.readMarkers.markRead("general", messageCount: general.messageCount)
        #expect(list.rows.data?.first { $0.id == "general" }?.unreadCount == general.messageCount,
                "an unobserved mediator does not follow its sources")

        let again = list.rows.record()
        #expect(again.latest?.first { $0.id == "general" }?.unreadCount == 0, "observed again, it catches up")
    }

    @Test func aMessageFromAnotherUserUpdatesItsRowLive() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        let notices = list.notices.record()
        await list.load().value
        let before = try #require(rows.latest?.first { $0.id == "keynote" })

        try await fixture.say("hello from alan", in: "keynote", as: "alan")
        let updated = try await rows.next { $0.first?.lastMessage == "hello from alan" }
        #expect(updated.first?.id == "keynote", "the active channel moves to the top")
        #expect(updated.first?.unreadCount == before.unreadCount + 1)
        #expect(updated == (try await expectedRows(fixture)))
        #expect(notices.values.isEmpty, "a real-time change is no catch-up")
    }

    @Test func comingBackOnlineCatchesUpWithTheChangeLog() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        let notices = list.notices.record()
        await list.load().value
        let before = try #require(rows.latest?.first { $0.id == "ada-alan" })

        try await fixture.goOffline()
        try await fixture.say("are you there?", in: "ada-alan", as: "alan")
        try await fixture.say("hello?", in: "ada-alan", as: "alan")
        try await fixture.settle()
        #expect(rows.latest?.first { $0.id == "ada-alan" } == before, "offline, nothing arrives")

        fixture.server.reconnect()
        #expect(try await notices.next() == "caught up: 1 channel changed (change log)")
        #expect(list.status.data?.source == .fresh)
        let row = try #require(rows.latest?.first)
        #expect(row.id == "ada-alan")
        #expect(row.lastMessage == "hello?")
        #expect(row.unreadCount == before.unreadCount + 2)
        #expect(rows.latest == (try await expectedRows(fixture)))
    }

    @Test func aCatchUpOfSeveralChannelsCountsThem() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let notices = list.notices.record()
        await list.load().value
        try await fixture.goOffline()
        try await fixture.say("one", in: "general", as: "grace")
        try await fixture.say("two", in: "random", as: "linus")
        fixture.server.reconnect()
        #expect(try await notices.next() == "caught up: 2 channels changed (change log)")
    }

    @Test
    func aCatchUpThatAddsAndUpdatesChannelsCountsThemAll() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        let notices = list.notices.record()
        await list.load().value
        try await fixture.goOffline()
        try await fixture.server.createChannel(id: "new-one", displayName: "New One", type: .community, memberIds: ["ada", "tim"])
        try await fixture.say("one", in: "general", as: "grace")
        fixture.server.reconnect()
        _ = try await rows.value { $0.contains { $0.id == "new-one" } }
        try await fixture.settle()
        #expect(notices.values == ["caught up: 2 channels changed (change log)"], "one notice for the whole catch-up")
    }

    @Test func aServerFailureWithACacheShowsTheCachedRowsAsLocal() async throws {
        let folder = try TemporaryDirectory()
        let cache = folder.file("cache.sqlite")
        let first = try await EnvironmentFixture.make(cache: .file(cache))
        let warm = ChannelListViewModel(environment: first.environment)
        await warm.load().value
        warm.close()
        first.environment.shutdown()
        await first.client.store.close()

        let second = try await EnvironmentFixture.make(server: first.server, clock: first.clock, cache: .file(cache))
        let list = ChannelListViewModel(environment: second.environment)
        let rows = list.rows.record()
        let status = list.status.record()
        second.server.failNextRequests(1)
        await list.load().value
        #expect(rows.latest == (try await expectedRows(second)))
        #expect(status.latest?.source == .local)
        #expect(status.latest?.isLoading == false)
        #expect(list.hasMore.data == true)
    }

    @Test func aServerFailureWithAnEmptyCacheIsAnErrorStatus() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        let status = list.status.record()
        fixture.server.failNextRequests(1, message: "the backend is down")
        await list.load().value
        #expect(status.latest == ScreenStatus(
            isLoading: false, source: .nothing, error: "server failure: the backend is down"))
        #expect(rows.latest == [])
        #expect(list.hasMore.data == true)
        #expect(list.channelId(at: 0) == nil)

        // Loading again works and clears the error.
        await list.load().value
        #expect(status.latest == ScreenStatus(isLoading: false, source: .fresh))
        #expect(rows.latest == (try await expectedRows(fixture)))
    }

    @Test func channelIdAtIndexNamesTheRowsChannel() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        await list.load().value
        let ids = try #require(rows.latest).map(\.id)
        #expect(ids.count == 4)
        for (index, id) in ids.enumerated() {
            #expect(list.channelId(at: index) == id)
        }
        #expect(list.channelId(at: 4) == nil)
        #expect(list.channelId(at: -1) == nil)
    }

    @Test func loadingAgainAfterTheServerAnsweredAsksNothing() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        await list.load().value
        let requests = fixture.server.requestCount
        await list.load().value
        await list.loadMore().value
        #expect(fixture.server.requestCount == requests)
    }

    @Test func aClosedListDeliversNothingMore() async throws {
        let fixture = try await EnvironmentFixture.make()
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        await list.load().value
        let count = rows.count
        list.close()
        try await fixture.say("nobody is listening", in: "general", as: "alan")
        try await fixture.settle()
        #expect(rows.count == count)
    }

    @Test func rowsObservedAfterTheViewModelIsGoneDeliverNothingMore() async throws {
        let fixture = try await EnvironmentFixture.make()
        var list: ChannelListViewModel? = ChannelListViewModel(environment: fixture.environment)
        weak let released = list
        let rows = try #require(list?.rows.record())
        await list?.load().value
        let count = rows.count
        list = nil
        #expect(released == nil, "the rows do not keep the view model")
        fixture.environment.readMarkers.markRead("general", messageCount: 1_000)
        try await fixture.say("after the list is gone", in: "general", as: "alan")
        try await fixture.settle()
        #expect(rows.count == count)
    }
}
