@testable import LiveSocial
import Testing

/// The state machine of a message collection, driven directly: inputs in, phases and actions
/// out, with no server, store or clock.
@Suite struct MessageCollectionStateTests {
    private static func position(_ time: Double) -> MessagePosition {
        MessagePosition(createdAt: time, id: "m\(Int(time))")
    }

    private static let window = HistoryRange(older: .excluding(position(10)), newer: .excluding(position(50)))

    /// A collection whose start finished with the server's answer through `sequence`.
    private static func running(through sequence: Int64 = 100, connected: Bool = true) -> MessageCollectionState {
        var state = MessageCollectionState()
        _ = state.start()
        state.serverRead(window, through: sequence, connected: connected)
        return state
    }

    // MARK: Starting

    @Test func startingTwiceOrAfterDisposalIsRefused() {
        var state = MessageCollectionState()
        #expect(state.phase == .idle)
        #expect(state.start() == .start)
        #expect(state.phase == .starting)
        #expect(state.start() == .refuse(.alreadyStarted))
        #expect(state.dispose() == .stop)
        #expect(state.start() == .refuse(.disposed))
        #expect(state.dispose() == .none)
    }

    @Test func theStartEndsWithTheServersAnswerOrItsFailure() {
        var state = MessageCollectionState()
        _ = state.start()
        let cached = HistoryRange(older: .including(Self.position(20)), newer: .open)
        state.cacheRead(cached)
        #expect(state.range == cached)
        #expect(state.phase == .starting)
        #expect(!state.hasNext && state.hasPrevious)
        state.serverRead(Self.window, through: 7, connected: true)
        #expect(state.phase == .running)
        #expect(state.range == Self.window)
        #expect(state.sync.phase == .synced(point: 7, live: true))

        var failed = MessageCollectionState()
        _ = failed.start()
        failed.serverFailed()
        #expect(failed.phase == .running)
        #expect(failed.sync.phase == .unsynced)
    }

    // MARK: Paging

    @Test func pagesAreRefusedUntilTheStartFinishedAndWhileOneLoadsOnTheSameSide() {
        var state = MessageCollectionState()
        #expect(state.pageRequested(.older) == .refuse(.notStarted))
        _ = state.start()
        #expect(state.pageRequested(.newer) == .refuse(.notStarted))
        state.serverRead(Self.window, through: 1, connected: true)
        #expect(state.pageRequested(.older) == .loadPage(.older))
        #expect(state.pageRequested(.older) == .refuse(.loadInProgress))
        #expect(state.pageRequested(.newer) == .loadPage(.newer))
        state.pageRead(.older, bound: .open)
        state.pageEnded(.older)
        #expect(!state.hasPrevious)
        #expect(state.pageRequested(.older) == .refuse(.noMorePages))
        _ = state.dispose()
        #expect(state.pageRequested(.newer) == .refuse(.disposed))
    }

    @Test func aPageFromTheCacheMakesTheNextConnectionLoadFromTheServer() {
        var state = Self.running()
        #expect(state.pageRequested(.older) == .loadPage(.older))
        state.pageReadFromCache(.older, through: Self.position(5))
        state.pageEnded(.older)
        #expect(state.older == .init(bound: .including(Self.position(5)), isFromCache: true))
        state.disconnected()
        #expect(state.connected() == .reload)
        // The server's answer confirms both sides: the next connection catches up.
        state.serverRead(Self.window, through: 120, connected: true)
        state.disconnected()
        #expect(state.connected() == .catchUp(since: 120))
    }

    // MARK: Changes and the connection

    @Test func changesApplyFromTheStartAndMoveTheSyncPointWhileLive() {
        var state = MessageCollectionState()
        #expect(state.changeCommitted(sequence: 3) == .none)
        _ = state.start()
        #expect(state.changeCommitted(sequence: 3) == .apply)
        #expect(state.sync.point == nil)
        state.serverRead(Self.window, through: 10, connected: true)
        #expect(state.changeCommitted(sequence: 12) == .apply)
        #expect(state.sync.point == 12)
        state.disconnected()
        #expect(state.changeCommitted(sequence: 13) == .apply)
        #expect(state.sync.phase == .synced(point: 12, live: false))
    }

    @Test func aConnectionBeforeTheFirstAnswerWaitsThenLoadsFromTheServer() {
        var state = MessageCollectionState()
        _ = state.start()
        #expect(state.connected() == .none)
        state.serverFailed()
        #expect(state.connected() == .reload)
    }

    @Test func aReconnectionCatchesUpOnceAndAHugeGapStopsTheCollection() {
        var state = Self.running(through: 10)
        state.disconnected()
        #expect(state.connected() == .catchUp(since: 10))
        #expect(state.connected() == .none)
        state.hugeGapFound()
        #expect(state.phase == .stale)
        #expect(state.changeCommitted(sequence: 11) == .none)
        #expect(state.externalCommit(rebuilt: false, connected: true) == .none)
        #expect(state.connected() == .none)
        // Pages still load.
        #expect(state.pageRequested(.newer) == .loadPage(.newer))
    }

    @Test func aFinishedCatchUpMovesThePointAndAFailedOneIsTriedAgain() {
        var state = Self.running(through: 10)
        state.disconnected()
        _ = state.connected()
        state.catchUpFailed()
        #expect(state.connected() == .catchUp(since: 10))
        _ = state.catchUpFinished(through: 30, connected: true)
        #expect(state.sync.phase == .synced(point: 30, live: true))
        #expect(state.phase == .running)
    }

    @Test func aDropDuringACatchUpIsFollowedByWhatAReconnectionDoesOnceItEnds() {
        var state = Self.running(through: 10)
        state.disconnected()
        #expect(state.connected() == .catchUp(since: 10))
        state.disconnected()
        #expect(state.connected() == .none, "a catch-up runs")
        let owed = state.catchUpFinished(through: 30, connected: true)
        #expect(owed == .catchUp(since: 30))
        let caughtUp = state.catchUpFinished(through: 35, connected: true)
        #expect(caughtUp == .none)
        #expect(state.sync.phase == .synced(point: 35, live: true))
        // A recovery that rebuilt the cache meanwhile: the owed pass is a reload.
        state.disconnected()
        _ = state.connected()
        state.disconnected()
        let rebuilt = state.externalCommit(rebuilt: true, connected: true)
        #expect(rebuilt == .none, "a catch-up runs")
        let reload = state.catchUpFinished(through: 40, connected: true)
        #expect(reload == .reload)
        // Still down when it ends: nothing now; the next connection decides.
        var offline = Self.running(through: 10)
        offline.disconnected()
        _ = offline.connected()
        offline.disconnected()
        let ended = offline.catchUpFinished(through: 20, connected: false)
        #expect(ended == .none)
        #expect(offline.connected() == .catchUp(since: 20))
    }

    @Test func aCatchUpThatFailsWhileConnectedIsRetriedAfterAWaitUntilTheConnectionDrops() {
        var state = Self.running(through: 10)
        state.disconnected()
        _ = state.connected()
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        #expect(state.retryDue() == .catchUp(since: 10))
        #expect(state.catchUpFailed(connected: false) == .none, "known offline: the connection's return tries again")
        #expect(state.retryDue() == .none)
        #expect(state.connected() == .catchUp(since: 10))
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        #expect(state.disconnected() == .stopRetrying)
        #expect(state.retryDue() == .none)
        // A side that came from the cache during the wait makes the retry a load from the server.
        _ = state.connected()
        #expect(state.catchUpFailed(connected: true) == .retryCatchUpLater)
        #expect(state.pageRequested(.older) == .loadPage(.older))
        state.pageReadFromCache(.older, through: Self.position(5))
        state.pageEnded(.older)
        #expect(state.retryDue() == .reload)
        // Neither a stale nor a disposed collection waits.
        var stale = Self.running(through: 10)
        _ = stale.connected()
        stale.hugeGapFound()
        #expect(stale.catchUpFailed(connected: true) == .none)
        _ = state.dispose()
        #expect(state.catchUpFailed(connected: true) == .none)
        #expect(state.retryDue() == .none)
    }

    @Test func anotherConnectionsCommitIsReadAndARecoveryReloadsOnceConnected() {
        var state = MessageCollectionState()
        #expect(state.externalCommit(rebuilt: false, connected: true) == .none)
        _ = state.start()
        #expect(state.externalCommit(rebuilt: false, connected: true) == .readExternal)
        #expect(state.externalRowsRead() == .apply)
        state.serverRead(Self.window, through: 10, connected: true)
        #expect(state.externalCommit(rebuilt: true, connected: false) == .none)
        #expect(state.older.isFromCache && state.newer.isFromCache)
        #expect(state.connected() == .reload)
        var connected = Self.running()
        #expect(connected.externalCommit(rebuilt: true, connected: true) == .reload)
        _ = state.dispose()
        #expect(state.externalRowsRead() == .none)
    }

    @Test func afterDisposalNoInputChangesTheState() {
        var state = Self.running(through: 10)
        _ = state.dispose()
        let disposed = state
        state.cacheRead(HistoryRange(older: .open, newer: .open))
        state.serverRead(HistoryRange(older: .open, newer: .open), through: 99, connected: true)
        state.pageRead(.older, bound: .open)
        state.pageReadFromCache(.newer, through: Self.position(1))
        state.hugeGapFound()
        #expect(state.changeCommitted(sequence: 11) == .none)
        #expect(state.connected() == .none)
        #expect(state == disposed)
    }

    // MARK: The range

    @Test func theRangeAdmitsWhatLiesBetweenItsBounds() {
        let range = HistoryRange(older: .including(Self.position(10)), newer: .excluding(Self.position(50)))
        #expect(range.contains(Self.position(10)))
        #expect(range.contains(Self.position(49)))
        #expect(!range.contains(Self.position(50)))
        #expect(!range.contains(Self.position(9)))
        let query = MessageListParams().query(channelId: "c", newestFirst: true).cacheQuery
        #expect(HistoryRange.after(Self.position(30), in: query) == HistoryRange(older: .open, newer: .excluding(Self.position(30))))
        #expect(HistoryRange.after(Self.position(30), in: query.reversed)
            == HistoryRange(older: .excluding(Self.position(30)), newer: .open))
    }
}
