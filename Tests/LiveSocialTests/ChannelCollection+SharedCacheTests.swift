import Foundation
import LiveData
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing
import TestSupport

/// The channel list hears channels that another client on the same cache file changed, through
/// the store's change hub: read from the cache and reported with the source `.cache`, once.
@Suite(.timeLimit(.minutes(3))) @MainActor
struct ChannelCollectionSharedCacheTests {
    @Test func aChannelAnotherClientOnTheSameFileChangedIsReportedFromTheCacheOnce() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(cache: .file(url))
        let other = try SocialClient(api: fixture.server.connection(userId: "ada"), userId: "ada", cache: .file(url))
        let collection = fixture.client.createChannelCollection()
        _ = try await collection.loadMore()
        let listed = collection.channels
        #expect(listed.count > 1)
        let events = Deliveries<ChannelCollectionEvent>()
        let observer = collection.events.observeForever { event in event.map(events.record) }
        var copy = try #require(listed.last)
        copy.displayName = "renamed elsewhere"
        let renamed = copy
        try await other.store.write { try $0.upsert(renamed) }
        await fixture.client.store.checkForExternalChanges()
        let event = try await events.next()
        #expect(event == .updated([renamed], ChannelContext(source: .cache)))
        // Nothing more: the other channels did not change.
        await fixture.client.store.checkForExternalChanges()
        try await fixture.settle()
        #expect(events.all == [event])
        #expect(collection.channels.map(\.id) == listed.map(\.id))
        #expect(collection.channels.last?.displayName == "renamed elsewhere")
        collection.events.remove(observer: observer)
        collection.dispose()
        fixture.client.stopRealtime()
        await other.store.close()
        await fixture.client.store.close()
    }
}
