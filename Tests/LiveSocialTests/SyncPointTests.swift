@testable import LiveSocial
import Testing

/// The sync point of a chat collection, driven directly: inputs in, phases and actions out, with
/// no server, store or clock.
@Suite struct SyncPointTests {
    @Test func beforeTheServerAnsweredThereIsNothingToCatchUpFrom() {
        var sync = SyncPoint()
        sync.changeCommitted(sequence: 5)
        sync.disconnected()
        #expect(sync.connected() == .none)
        #expect(sync.phase == .unsynced)
        #expect(sync.point == nil)
    }

    @Test func eventsMoveThePointOnlyWhileTheyArriveWithoutABreak() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.changeCommitted(sequence: 12)
        sync.changeCommitted(sequence: 11)
        sync.changeCommitted(sequence: nil)
        #expect(sync.phase == .synced(point: 12, live: true))
        sync.disconnected()
        sync.changeCommitted(sequence: 20)
        #expect(sync.phase == .synced(point: 12, live: false))
    }

    @Test func aCollectionAnsweredOfflineDoesNotFollowEventsUntilItCaughtUp() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: false)
        sync.changeCommitted(sequence: 11)
        #expect(sync.point == 10)
        #expect(sync.connected() == .catchUp(since: 10))
    }

    @Test func aReconnectionCatchesUpOnceFromThePointAndFollowsEventsAfter() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.disconnected()
        #expect(sync.connected() == .catchUp(since: 10))
        #expect(sync.isCatchingUp)
        // A second connection while one runs starts nothing; events during it do not count.
        #expect(sync.connected() == .none)
        sync.changeCommitted(sequence: 40)
        #expect(sync.phase == .catchingUp(point: 10))
        sync.catchUpFinished(through: 30, connected: true)
        #expect(sync.phase == .synced(point: 30, live: true))
        sync.changeCommitted(sequence: 31)
        #expect(sync.point == 31)
    }

    @Test func aConnectionThatDropsAndComesBackDuringACatchUpOwesAnotherFromWhereItEnded() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.disconnected()
        #expect(sync.connected() == .catchUp(since: 10))
        // The log may have been read before the drop: events of the time between are missed.
        sync.disconnected()
        #expect(sync.connected() == .none, "a catch-up runs")
        #expect(sync.phase == .catchingUp(point: 10, dropped: true))
        sync.changeCommitted(sequence: 40)
        let owed = sync.catchUpFinished(through: 30, connected: true)
        #expect(owed, "another catch-up is owed")
        #expect(sync.phase == .synced(point: 30, live: false))
        sync.changeCommitted(sequence: 41)
        #expect(sync.connected() == .catchUp(since: 30))
        let owedAgain = sync.catchUpFinished(through: 41, connected: true)
        #expect(!owedAgain)
        #expect(sync.phase == .synced(point: 41, live: true))
        // Dropped and still down when it ends: the next connection catches up, as after any drop.
        sync.disconnected()
        _ = sync.connected()
        sync.disconnected()
        let owedOffline = sync.catchUpFinished(through: 50, connected: false)
        #expect(!owedOffline)
        #expect(sync.phase == .synced(point: 50, live: false))
        #expect(sync.connected() == .catchUp(since: 50))
    }

    @Test func aCatchUpThatEndsOfflineDoesNotFollowEvents() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.disconnected()
        _ = sync.connected()
        sync.catchUpFinished(through: 30, connected: false)
        sync.changeCommitted(sequence: 31)
        #expect(sync.phase == .synced(point: 30, live: false))
    }

    @Test func aFailedCatchUpIsTriedAgainFromTheSamePoint() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.disconnected()
        _ = sync.connected()
        sync.catchUpFailed()
        #expect(sync.phase == .synced(point: 10, live: false))
        sync.changeCommitted(sequence: 11)
        #expect(sync.connected() == .catchUp(since: 10))
        // Reports that come when no catch-up runs change nothing.
        var idle = SyncPoint()
        idle.serverAnswered(through: 5, connected: true)
        idle.catchUpFinished(through: 50, connected: true)
        idle.catchUpFailed()
        #expect(idle.phase == .synced(point: 5, live: true))
    }

    @Test func aCatchUpThatFailsWhileConnectedWaitsForARetryThatTheConnectionCanOvertake() {
        var sync = SyncPoint()
        sync.serverAnswered(through: 10, connected: true)
        sync.disconnected()
        _ = sync.connected()
        #expect(sync.catchUpFailed(retrying: true) == .retryLater)
        #expect(sync.phase == .waitingToRetry(point: 10))
        #expect(!sync.isCatchingUp)
        // Events during the wait do not move the point: the log may hold older changes.
        sync.changeCommitted(sequence: 11)
        #expect(sync.point == 10)
        #expect(sync.retryDue() == .catchUp(since: 10))
        #expect(sync.retryDue() == .none, "a catch-up runs")
        // A dropped connection ends the wait: the next connection catches up, not a late retry.
        #expect(sync.catchUpFailed(retrying: true) == .retryLater)
        #expect(sync.disconnected() == .stopRetrying)
        #expect(sync.phase == .synced(point: 10, live: false))
        #expect(sync.retryDue() == .none)
        #expect(sync.connected() == .catchUp(since: 10))
        // A connection that comes during the wait catches up at once; the wait's end then does nothing.
        #expect(sync.catchUpFailed(retrying: true) == .retryLater)
        #expect(sync.connected() == .catchUp(since: 10))
        sync.catchUpFinished(through: 20, connected: true)
        #expect(sync.retryDue() == .none)
        #expect(sync.phase == .synced(point: 20, live: true))
    }
}
