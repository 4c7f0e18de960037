@testable import LiveSocial
import Testing

/// The one reader of the server's change log, driven by a scripted log: pages in, commits and an
/// outcome out, with no server, store or clock.
@MainActor
@Suite struct ChangeLogReaderTests {
    /// What a reader committed, batch by batch.
    final class Commits {
        var batches: [ChangeLogReader.Batch] = []
        /// The (zero-based) commit that throws, if any.
        var failing: Int?

        func commit(_ batch: ChangeLogReader.Batch) throws {
            defer { batches.append(batch) }
            if batches.count == failing { throw SocialAPIError.offline }
        }

        var committedIDs: [[String]] { batches.map { $0.records.map(\.key.id) } }
    }

    @Test func aMultiPageCatchUpCommitsEachPageAndAsksFromWhereTheLastEnded() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 1])
        let commits = Commits()
        let outcome = await log.reader(batching: .eachPage).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .caughtUp(through: 15))
        #expect(log.requests.map(\.since) == [10, 12, 14])
        #expect(log.requests.allSatisfy { $0.limit == 2 })
        #expect(commits.committedIDs == [["ch11", "ch12"], ["ch13", "ch14"], ["ch15"]])
        #expect(commits.batches.map(\.through) == [12, 14, 15])
    }

    @Test func aWholeLogIsCommittedOnceWithEachRecordInItsLatestState() async {
        let first = ChangeLog(
            records: [.channel(ScriptedChangeLog.channel("a", at: 11)), .channel(ScriptedChangeLog.channel("b", at: 12))],
            deleted: [SocialRecordKey(.channel, "gone")], latestSequence: 12, hasMore: true)
        // "a" changed again while the catch-up paged: the later page has it in its new state.
        let renamed = ScriptedChangeLog.channel("a", at: 13, name: "renamed")
        let second = ChangeLog(
            records: [.channel(renamed), .channel(ScriptedChangeLog.channel("c", at: 14))],
            deleted: [], latestSequence: 14, hasMore: false)
        let log = ScriptedChangeLog(pages: [first, second])
        let commits = Commits()
        let outcome = await log.reader(batching: .wholeLog).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .caughtUp(through: 14))
        #expect(commits.committedIDs == [["a", "b", "c"]])
        #expect(commits.batches.first?.records.first == .channel(renamed))
        #expect(commits.batches.first?.removals == [SocialRecordKey(.channel, "gone")])
        #expect(commits.batches.first?.through == 14)
    }

    @Test func aWholeLogKeepsTheLastWordOnARecordRemovedOrBroughtBackOnALaterPage() async {
        let member = SocialRecordKey(.channel, "member")
        let back = ScriptedChangeLog.channel("back", at: 13)
        // "member" is added, then removed on the next page; "back" is removed, then added again.
        let first = ChangeLog(
            records: [.channel(ScriptedChangeLog.channel("member", at: 11))],
            deleted: [SocialRecordKey(.channel, "back")], latestSequence: 12, hasMore: true)
        let second = ChangeLog(records: [.channel(back)], deleted: [member], latestSequence: 14, hasMore: false)
        let log = ScriptedChangeLog(pages: [first, second])
        let commits = Commits()
        let outcome = await log.reader(batching: .wholeLog).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .caughtUp(through: 14))
        #expect(commits.batches.first?.records == [.channel(back)])
        #expect(commits.batches.first?.removals == [member])
    }

    @Test func anEmptyLogIsCaughtUpAtThePointItStartedFrom() async {
        let log = ScriptedChangeLog(pages: [ChangeLog(records: [], deleted: [], latestSequence: 7, hasMore: false)])
        let commits = Commits()
        let outcome = await log.reader(batching: .wholeLog).read(since: 7) { try commits.commit($0) }
        #expect(outcome == .caughtUp(through: 7))
        #expect(commits.batches.map(\.through) == [7])
        #expect(commits.batches.first?.records.isEmpty == true)
    }

    @Test func aPageFailingMidwayLeavesThePointAtTheLastPageCommitted() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 1])
        log.failingRequest = 1
        let commits = Commits()
        let outcome = await log.reader(batching: .eachPage).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .failed(committedThrough: 12))
        #expect(commits.committedIDs == [["ch11", "ch12"]])
        #expect(log.requests.count == 2)
    }

    @Test func aPageFailingMidwayOfAWholeLogCommitsNothing() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 1])
        log.failingRequest = 2
        let commits = Commits()
        let outcome = await log.reader(batching: .wholeLog).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .failed(committedThrough: 10))
        #expect(commits.batches.isEmpty)
    }

    @Test func aCommitThatFailsEndsTheReadAtWhatCommittedBefore() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 1])
        let commits = Commits()
        commits.failing = 1
        let outcome = await log.reader(batching: .eachPage).read(since: 10) { try commits.commit($0) }
        #expect(outcome == .failed(committedThrough: 12))
        // The failed page was offered, and nothing was asked for after it.
        #expect(commits.batches.count == 2)
        #expect(log.requests.count == 2)
    }

    @Test func aHugeGapStopsTheReadWithoutCommittingWhatItRead() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 2, 1])
        let commits = Commits()
        var seen: [Int] = []
        let outcome = await log.reader(batching: .wholeLog).read(since: 10) { batch in
            seen.append(batch.records.count)
            return batch.records.count > 3
        } commit: { try commits.commit($0) }
        #expect(outcome == .hugeGap(committedThrough: 10, read: 14))
        // The test sees everything read so far, after each page; no page is asked for after the gap.
        #expect(seen == [2, 4])
        #expect(log.requests.count == 2)
        #expect(commits.batches.isEmpty)
    }

    @Test func aHugeGapAfterPagesCommittedOneByOneKeepsThem() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 3, 1])
        let commits = Commits()
        let outcome = await log.reader(batching: .eachPage).read(since: 10) { $0.records.count > 2 } commit: {
            try commits.commit($0)
        }
        #expect(outcome == .hugeGap(committedThrough: 12, read: 15))
        #expect(commits.committedIDs == [["ch11", "ch12"]])
    }

    @Test func aCanceledReadStopsAfterThePageUnderWayWithoutCommittingIt() async {
        let log = ScriptedChangeLog(after: 10, sizes: [2, 2, 1])
        log.cancelingRequest = 1
        let commits = Commits()
        let outcome = await Task { await log.reader(batching: .eachPage).read(since: 10) { try commits.commit($0) } }.value
        #expect(outcome == .canceled(committedThrough: 12))
        #expect(commits.committedIDs == [["ch11", "ch12"]])
        #expect(log.requests.count == 2)
    }

    @Test func aReadCanceledBeforeItStartsAsksForNothing() async {
        let log = ScriptedChangeLog(after: 10, sizes: [1])
        let commits = Commits()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await log.reader(batching: .wholeLog).read(since: 10) { try commits.commit($0) }
        }
        #expect(await task.value == .canceled(committedThrough: 10))
        #expect(log.requests.isEmpty)
        #expect(commits.batches.isEmpty)
    }
}
