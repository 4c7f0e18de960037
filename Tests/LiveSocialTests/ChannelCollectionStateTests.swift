@testable import LiveSocial
import Testing

/// The state machine of a channel collection, driven directly: inputs in, phases and actions
/// out, with no server, store or clock.
@Suite struct ChannelCollectionStateTests {
    private static let place = ChannelCollectionState.Place(activity: 30, id: "c3")

    /// A started collection whose first page came from the server through `sequence`.
    private static func listing(through sequence: Int64 = 100, connected: Bool = true) -> ChannelCollectionState {
        var state = ChannelCollectionState()
        _ = state.start()
        _ = state.pageRequested()
        _ = state.serverPageRead(cursor: "next", end: place, sequence: sequence, connected: connected)
        state.pageEnded()
        return state
    }

    // MARK: Starting and disposing

    @Test func theCollectionStartsOnceAndStopsOnce() {
        var state = ChannelCollectionState()
        #expect(state.phase == .idle)
        #expect(state.pageRequested() == .refuse(.notStarted))
        #expect(state.start() == .start)
        #expect(state.phase == .listing)
        #expect(state.start() == .none)
        #expect(state.dispose() == .stop)
        #expect(state.isDisposed)
        #expect(state.dispose() == .none)
        #expect(state.start() == .none)
        #expect(state.pageRequested() == .refuse(.disposed))
    }

    // MARK: Paging

    @Test func aPageReadsTheCacheThenTheServerWhoseFirstAnswerSetsTheSyncPoint() {
        var state = ChannelCollectionState()
        _ = state.start()
        #expect(!state.hasLoadedFromServer)
        #expect(state.pageRequested() == .readCachePage)
        #expect(state.paging.isLoading)
        #expect(state.pageRequested() == .refuse(.loadInProgress))
        #expect(state.cachePageRead() == .readServerPage(cursor: nil))
        #expect(state.serverPageRead(cursor: "p2", end: Self.place, sequence: 7, connected: true) == .none)
        state.pageEnded()
        #expect(state.paging == .init(cursor: "p2", end: Self.place, hasMore: true, isLoading: false))
        #expect(state.hasLoadedFromServer)
        #expect(state.sync.phase == .synced(point: 7, live: true))

        #expect(state.pageRequested() == .readCachePage)
        #expect(state.cachePageRead() == .readServerPage(cursor: "p2"))
        _ = state.serverPageRead(cursor: nil, end: nil, sequence: 9, connected: true)
        state.pageEnded()
        #expect(!state.paging.hasMore)
        #expect(state.paging.end == nil)
        #expect(state.sync.phase == .synced(point: 7, live: true), "a later page's sequence is only that page's")
        #expect(state.pageRequested() == .refuse(.noMorePages))
    }

    @Test func aFailedServerPageLeavesThePagingAsItWasAndTheNextPageAsksAgain() {
        var state = ChannelCollectionState()
        _ = state.start()
        _ = state.pageRequested()
        _ = state.cachePageRead()
        #expect(state.serverPageFailed() == .none)
        state.pageEnded()
        #expect(state.paging == .init())
        #expect(!state.hasLoadedFromServer)
        #expect(state.pageRequested() == .readCachePage)
        #expect(state.cachePageRead() == .readServerPage(cursor: nil))
    }

    @Test func aPageUnderWayWhenTheCollectionIsDisposedEndsInRefusal() {
        var afterCache = ChannelCollectionState()
        _ = afterCache.start()
        _ = afterCache.pageRequested()
        _ = afterCache.dispose()
        #expect(afterCache.cachePageRead() == .refuse(.disposed))

        var afterServer = ChannelCollectionState()
        _ = afterServer.start()
        _ = afterServer.pageRequested()
        _ = afterServer.cachePageRead()
        _ = afterServer.dispose()
        #expect(afterServer.serverPageRead(cursor: "p2", end: Self.place, sequence: 3, connected: true) == .refuse(.disposed))
        #expect(afterServer.paging.cursor == nil)
        #expect(!afterServer.hasLoadedFromServer)
        #expect(afterServer.serverPageFailed() == .refuse(.disposed))
    }

    @Test func placesOrderByActivityThenId() {
        typealias Place = ChannelCollectionState.Place
        #expect(Place(activity: 1, id: "z") < Place(activity: 2, id: "a"))
        #expect(Place(activity: 2, id: "a") < Place(activity: 2, id: "b"))
        #expect(!(Place(activity: 2, id: "b") < Place(activity: 2, id: "b")))
    }

    // MARK: Changes

    @Test func changesApplyFromTheStartUntilDisposalAndMoveALiveSyncPoint() {
        var state = ChannelCollectionState()
        #expect(state.changeCommitted(sequence: 1) == .none)
        _ = state.start()
        #expect(state.changeCommitted(sequence: 1) == .apply)
        #expect(state.sync.phase == .unsynced)

        var synced = Self.listing(through: 100)
        #expect(synced.changeCommitted(sequence: 104) == .apply)
        #expect(synced.sync.phase == .synced(point: 104, live: true))
        #expect(synced.changeCommitted(sequence: nil) == .apply)
        #expect(synced.sync.phase == .synced(point: 104, live: true))
        _ = synced.dispose()
        #expect(synced.changeCommitted(sequence: 110) == .none)
        #expect(synced.sync.phase == .synced(point: 104, live: true))
    }

    @Test func anotherConnectionsCommitIsReadUnlessARecoveryRebuiltTheCache() {
        var state = ChannelCollectionState()
        #expect(state.externalCommit(rebuilt: false) == .none)
        _ = state.start()
        #expect(state.externalCommit(rebuilt: false) == .readExternal)
        #expect(state.externalCommit(rebuilt: true) == .none)
        #expect(state.externalRowsRead() == .apply)
        _ = state.dispose()
        #expect(state.externalCommit(rebuilt: false) == .none)
        #expect(state.externalRowsRead() == .none)
    }

    // MARK: The connection

    @Test func aReconnectionCatchesUpFromTheSyncPointOnceTheServerAnswered() {
        var unsynced = ChannelCollectionState()
        _ = unsynced.start()
        #expect(unsynced.connected() == .none)

        var state = Self.listing(through: 100)
        state.disconnected()
        #expect(state.changeCommitted(sequence: 120) == .apply)
        #expect(state.sync.phase == .synced(point: 100, live: false))
        #expect(state.connected() == .catchUp(since: 100))
        #expect(state.connected() == .none)
        #expect(state.changeCommitted(sequence: 130) == .apply)
        #expect(state.catchUpRead() == .commitCatchUp)
        _ = state.catchUpFinished(through: 125, connected: true)
        #expect(state.sync.phase == .synced(point: 125, live: true))
    }

    @Test func aFailedCatchUpIsTriedAgainFromTheSamePointOnTheNextConnection() {
        var state = Self.listing(through: 100)
        #expect(state.connected() == .catchUp(since: 100))
        state.catchUpFailed()
        #expect(state.sync.phase == .synced(point: 100, live: false))
        #expect(state.connected() == .catchUp(since: 100))
    }

    @Test func aCatchUpThatFailsWhileConnectedIsRetriedAfterAWaitUntilTheConnectionDrops() {
        var state = Self.listing(through: 100)
        #expect(state.connected() == .catchUp(since: 100))
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        #expect(state.retryDue() == .catchUp(since: 100))
        #expect(state.catchUpFailed(connected: false) == .none, "known offline: the connection's return tries again")
        #expect(state.retryDue() == .none)
        #expect(state.connected() == .catchUp(since: 100))
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        #expect(state.disconnected() == .stopRetrying)
        #expect(state.disconnected() == .none)
        #expect(state.retryDue() == .none)
        #expect(state.connected() == .catchUp(since: 100))
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        _ = state.dispose()
        #expect(state.retryDue() == .none)
    }

    @Test func aCatchUpThatEndsAfterDisposalIsAbandonedAndNoConnectionStartsAnother() {
        var state = Self.listing(through: 100)
        #expect(state.connected() == .catchUp(since: 100))
        _ = state.dispose()
        #expect(state.catchUpRead() == .none)
        #expect(state.sync.phase == .synced(point: 100, live: false))
        #expect(state.connected() == .none)
        #expect(state.hasLoadedFromServer)
    }
}
