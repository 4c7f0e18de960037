import TestSupport
import Testing
@testable import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct CollectionChangeTests {
    // MARK: - The value and its contract

    @Test func anEmptyChangeIsEmpty() {
        #expect(CollectionChange().isEmpty)
        #expect(CollectionChange(deletions: [], insertions: [], modifications: []) == CollectionChange())
        #expect(!CollectionChange(deletions: [0]).isEmpty)
        #expect(!CollectionChange(insertions: [0]).isEmpty)
        #expect(!CollectionChange(modifications: [0]).isEmpty)
        #expect(CollectionChange().applied(to: ["a", "b"]) { _ in "x" } == ["a", "b"])
    }

    @Test func appliesDeletionsInOldIndexesThenInsertionsInNewIndexes() {
        // The example of the type's documentation: b moved, d left, e arrived, c was modified.
        let old = ["a", "b", "c", "d"]
        let new = ["a", "e", "c", "b"]
        let change = CollectionChange(deletions: [1, 3], insertions: [1, 3], modifications: [2])
        #expect(change.applied(to: old) { new[$0] } == new)
    }

    @Test func appliesInsertionsAtBothEndsAndDeletionsOfEverything() {
        let grown = CollectionChange(insertions: [0, 3, 4]).applied(to: ["b", "c"]) { "new\($0)" }
        #expect(grown == ["new0", "b", "c", "new3", "new4"])
        let emptied = CollectionChange(deletions: [0, 1, 2]).applied(to: ["a", "b", "c"]) { _ in "x" }
        #expect(emptied.isEmpty)
        let replaced = CollectionChange(deletions: [0, 1], insertions: [0]).applied(to: ["a", "b"]) { _ in "z" }
        #expect(replaced == ["z"])
    }

    @Test func applyingPassesOnWhatTheInsertingClosureThrows() {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try CollectionChange(insertions: [0]).applied(to: [1]) { _ in throw Refused() }
        }
    }

    // MARK: - Hand-written diffs

    @Test func emptyToItemsInsertsEverything() {
        expectDiff([], [1, 2, 3], insertions: [0, 1, 2])
    }

    @Test func itemsToEmptyDeletesEverything() {
        expectDiff([1, 2, 3], [], deletions: [0, 1, 2])
    }

    @Test func emptyToEmptyIsEmpty() {
        #expect(WindowDiff.change(from: Self.rows([]), to: Self.rows([]), modified: [7]).isEmpty)
    }

    @Test func noChangeIsEmpty() {
        #expect(WindowDiff.change(from: Self.rows([1, 2, 3]), to: Self.rows([1, 2, 3]), modified: []).isEmpty)
        // A modified id that is not in the window is ignored.
        #expect(WindowDiff.change(from: Self.rows([1, 2, 3]), to: Self.rows([1, 2, 3]), modified: [9]).isEmpty)
    }

    @Test func insertsAtTheFrontInTheMiddleAndAtTheEnd() {
        expectDiff([1, 2, 3], [9, 1, 2, 3], insertions: [0])
        expectDiff([1, 2, 3], [1, 9, 2, 3], insertions: [1])
        expectDiff([1, 2, 3], [1, 2, 3, 9], insertions: [3])
        expectDiff([1, 2, 3], [7, 1, 8, 2, 3, 9], insertions: [0, 2, 5])
    }

    @Test func deletesAtTheFrontInTheMiddleAndAtTheEnd() {
        expectDiff([1, 2, 3, 4], [2, 3, 4], deletions: [0])
        expectDiff([1, 2, 3, 4], [1, 3, 4], deletions: [1])
        expectDiff([1, 2, 3, 4], [1, 2, 3], deletions: [3])
        expectDiff([1, 2, 3, 4, 5], [2, 4], deletions: [0, 2, 4])
    }

    @Test func reportsModificationsAtOldIndexes() {
        expectDiff([1, 2, 3], [1, 2, 3], modified: [2], modifications: [1])
        // After a deletion before it, a modified row is still reported at its old index.
        expectDiff([1, 2, 3, 4], [1, 3, 4], modified: [3, 4], deletions: [1], modifications: [2, 3])
        // And after an insertion before it, too.
        expectDiff([1, 2, 3], [9, 1, 2, 3], modified: [1, 3], insertions: [0], modifications: [0, 2])
    }

    @Test func aDeletedOrInsertedRowIsNotAModification() {
        expectDiff([1, 2, 3], [1, 3], modified: [2], deletions: [1])
        expectDiff([1, 3], [1, 2, 3], modified: [2], insertions: [1])
    }

    @Test func movesForwardAsADeletionAndAnInsertion() {
        expectDiff([1, 2, 3, 4], [2, 3, 1, 4], deletions: [0], insertions: [2])
    }

    @Test func movesBackwardAsADeletionAndAnInsertion() {
        expectDiff([1, 2, 3, 4], [1, 4, 2, 3], deletions: [3], insertions: [1])
        expectDiff([1, 2, 3, 4, 5], [5, 1, 2, 3, 4], deletions: [4], insertions: [0])
    }

    @Test func swappingNeighboursMovesOneOfThem() {
        let change = expectApplies([1, 2, 3, 4], [1, 3, 2, 4], modified: [])
        #expect(change.deletions.count == 1 && change.insertions.count == 1)
        #expect(change.modifications.isEmpty)
    }

    @Test func swappingTheEndsMovesTwoRows() {
        let change = expectApplies([1, 2, 3, 4, 5], [5, 2, 3, 4, 1], modified: [])
        #expect(change.deletions == [0, 4])
        #expect(change.insertions == [0, 4])
    }

    @Test func reversingKeepsOneRow() {
        let change = expectApplies([1, 2, 3, 4, 5], [5, 4, 3, 2, 1], modified: [])
        #expect(change.deletions.count == 4 && change.insertions.count == 4)
    }

    @Test func aModifiedRowThatMovedIsReportedAsAMoveOnly() {
        expectDiff(
            [1, 2, 3, 4], [2, 3, 4, 1], modified: [1, 3],
            deletions: [0], insertions: [3], modifications: [2])
    }

    @Test func theDocumentationExample() {
        // a b c d → a e c b: b moved, d left, e arrived, c was modified.
        expectDiff(
            [1, 2, 3, 4], [1, 5, 3, 2], modified: [3],
            deletions: [1, 3], insertions: [1, 3], modifications: [2])
    }

    @Test func replacingEverythingDeletesAndInsertsEverything() {
        expectDiff([1, 2, 3], [4, 5], modified: [1], deletions: [0, 1, 2], insertions: [0, 1])
    }

    // MARK: - Rows are identified by their id, not their rowid

    @Test func aRowidReusedByAnotherRecordIsADeletionAndAnInsertion() {
        // r5 (rowid 5, the largest) was deleted and r6 inserted at the same place in one write;
        // SQLite gave r6 the rowid 5.
        let old = [key("r1", 1), key("r2", 2), key("r3", 3), key("r4", 4), key("r5", 5)]
        let new = [key("r1", 1), key("r2", 2), key("r3", 3), key("r4", 4), key("r6", 5)]
        let change = WindowDiff.change(from: DisplayRows(old), to: DisplayRows(new), modified: [5])
        #expect(change == CollectionChange(deletions: [4], insertions: [4]))
    }

    @Test func aReusedRowidInTheMiddleOfAMoveIsStillADeletionAndAnInsertion() {
        let old = [key("a", 1), key("b", 2), key("c", 3), key("d", 4)]
        let new = [key("d", 4), key("a", 1), key("x", 3), key("b", 2)]
        let change = WindowDiff.change(from: DisplayRows(old), to: DisplayRows(new), modified: [3])
        #expect(change.modifications.isEmpty)
        #expect(change.applied(to: old) { new[$0] }.map(\.id) == new.map(\.id))
        #expect(change.deletions.contains(2) && change.insertions.contains(2))
    }

    @Test func aRecordThatGotANewRowidIsTheSameRowAndModified() {
        // b was deleted and inserted again in one write: a new rowid, the same record.
        let old = [key("a", 1), key("b", 2), key("c", 3)]
        let new = [key("a", 1), key("b", 9), key("c", 3)]
        #expect(WindowDiff.change(from: DisplayRows(old), to: DisplayRows(new), modified: [2, 9]) == CollectionChange(modifications: [1]))
        // Touched under its new rowid only, it is modified too.
        #expect(WindowDiff.change(from: DisplayRows(old), to: DisplayRows(new), modified: [9]) == CollectionChange(modifications: [1]))
    }

    @Test func aTouchedRowAfterTheLastDifferenceIsReportedAtItsOldIndex() {
        let old = [key("a", 1), key("b", 2), key("c", 3)]
        let new = [key("z", 8), key("a", 1), key("b", 2), key("c", 3)]
        #expect(WindowDiff.change(from: DisplayRows(old), to: DisplayRows(new), modified: [3]) == CollectionChange(insertions: [0], modifications: [2]))
    }

    /// Rowids are only a way to find rows: for 2,000 random windows, giving deleted rows' rowids
    /// to inserted rows and new rowids to kept rows (a record deleted and inserted again) leaves
    /// the deletions and insertions as they are by id, and adds the re-inserted kept rows to the
    /// modifications (a write touched them).
    @Test func reusedAndReassignedRowidsLeaveTheChangeByIDUnchanged() {
        for seed in UInt64(1)...2_000 {
            let (oldIDs, newIDs, modified) = Self.randomCase(seed: seed)
            let expected = WindowDiff.change(from: Self.rows(oldIDs), to: Self.rows(newIDs), modified: modified)
            var random = SeededRandom(seed: seed &+ 7_777)
            let oldSet = Set(oldIDs)
            var free = oldIDs.filter { !Set(newIDs).contains($0) }  // rowids of rows that left
            var fresh: Int64 = 1_000_000
            var touched = modified
            var reinserted: Set<Int64> = []
            let new = newIDs.map { id -> RowKey in
                var rowid = id
                if oldSet.contains(id), random.chance(20) {
                    fresh += 1
                    rowid = fresh
                    reinserted.insert(id)
                } else if !oldSet.contains(id), !free.isEmpty, random.chance(60) {
                    rowid = free.removeLast()
                }
                if rowid != id { touched.insert(rowid) }
                return RowKey(value: .null, id: "r\(id)", rowid: rowid)
            }
            let change = WindowDiff.change(from: Self.rows(oldIDs), to: DisplayRows(new), modified: touched)
            let kept = Set(oldIDs.indices).subtracting(expected.deletions)
            let expectedModifications = Set(expected.modifications)
                .union(kept.filter { reinserted.contains(oldIDs[$0]) })
            #expect(change.deletions == expected.deletions, "seed \(seed)")
            #expect(change.insertions == expected.insertions, "seed \(seed)")
            #expect(Set(change.modifications) == expectedModifications, "seed \(seed)")
        }
    }

    @Test func aWindowReadInReverseGivesTheSameChangeAsItsReversedCopy() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<200 {
            let (old, new, modified) = Self.randomCase(seed: random.next())
            let forward = WindowDiff.change(from: Self.rows(old), to: Self.rows(new), modified: modified)
            let reversed = WindowDiff.change(
                from: DisplayRows(Self.rows(old.reversed()).rows, reversed: true),
                to: DisplayRows(Self.rows(new.reversed()).rows, reversed: true), modified: modified)
            #expect(forward == reversed)
        }
    }

    private func key(_ id: String, _ rowid: Int64) -> RowKey { RowKey(value: .null, id: id, rowid: rowid) }

    // MARK: - Properties

    /// For 2,000 random windows: the change turns old into new, keeps as many rows as possible
    /// (checked against a quadratic longest-increasing-subsequence), and reports exactly the
    /// modified rows it keeps. A failure names its seed; `randomCase(seed:)` replays it.
    @Test func randomChangesApplyAndAreMinimal() {
        var failures = 0
        for seed in UInt64(1)...2_000 {
            let (old, new, modified) = Self.randomCase(seed: seed)
            let change = WindowDiff.change(from: Self.rows(old), to: Self.rows(new), modified: modified)
            var problems = Self.problems(of: change, old: old, new: new, modified: modified)
            let longestRun = Self.quadraticLongestKeptRun(old: old, new: new)
            if change.deletions.count != old.count - longestRun {
                problems.append("\(change.deletions.count) deletions, but only \(old.count - longestRun) are needed")
            }
            if !problems.isEmpty {
                Issue.record("seed \(seed): \(problems.joined(separator: "; ")); old \(old), new \(new), modified \(modified.sorted()), change \(change)")
                failures += 1
                if failures == 5 { return }
            }
        }
    }

    /// Ten thousand rows with a hundred changes: 40 insertions, 40 deletions, 10 moves and
    /// 10 modifications. Checked for correctness; timing is not a test's business.
    @Test(arguments: [UInt64(7), 42, 2_024])
    func aLargeWindowWithAHundredChanges(seed: UInt64) {
        expectLargeWindowDiff(seed: seed, modifiedCount: 10)
    }

    /// The same with half of the rows modified, beyond what the modified-id filter can tell apart.
    @Test func aLargeWindowWithManyModifiedRows() {
        expectLargeWindowDiff(seed: 99, modifiedCount: 5_000)
    }

    @Test func idsAnywhereInTheInt64Range() {
        expectDiff(
            [.min, -1, 0, 1, .max], [.max, -1, 0, 1, 7], modified: [.min, .max, 0],
            deletions: [0, 4], insertions: [0, 4], modifications: [2])
    }

    // MARK: - Helpers

    /// Rows whose rowid is each number and whose id is made from it: the common case, where a
    /// row keeps its rowid and no rowid is reused.
    static func rows(_ rowids: [Int64]) -> DisplayRows {
        DisplayRows(rowids.map { RowKey(value: .integer($0), id: "r\($0)", rowid: $0) })
    }

    private func expectLargeWindowDiff(seed: UInt64, modifiedCount: Int) {
        var random = SeededRandom(seed: seed)
        var old: [Int64] = []
        old.reserveCapacity(10_000)
        var nextID: Int64 = 1
        for _ in 0..<10_000 {
            old.append(nextID)
            nextID += Int64(1 + random.below(4))
        }
        var new = old
        for _ in 0..<40 {
            new.remove(at: random.below(new.count))
        }
        for _ in 0..<40 {
            new.insert(nextID, at: random.below(new.count + 1))
            nextID += 1
        }
        for _ in 0..<10 {
            let id = new.remove(at: random.below(new.count))
            new.insert(id, at: random.below(new.count + 1))
        }
        var modified: Set<Int64> = []
        while modified.count < modifiedCount {
            modified.insert(new[random.below(new.count)])
        }

        let change = WindowDiff.change(from: Self.rows(old), to: Self.rows(new), modified: modified)
        let problems = Self.problems(of: change, old: old, new: new, modified: modified)
        #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "; "))")
        // Each deletion or move removes at most one row from the kept run, each insertion or
        // move adds at most one inserted row.
        #expect(change.deletions.count <= 40 + 10, "seed \(seed)")
        #expect(change.insertions.count <= 40 + 10, "seed \(seed)")
    }

    /// Expects the exact change from `old` to `new`, and that it applies.
    private func expectDiff(
        _ old: [Int64], _ new: [Int64], modified: Set<Int64> = [],
        deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let change = expectApplies(old, new, modified: modified, sourceLocation: sourceLocation)
        let expected = CollectionChange(deletions: deletions, insertions: insertions, modifications: modifications)
        #expect(change == expected, sourceLocation: sourceLocation)
    }

    /// Diffs `old` against `new`, expects the change to be well formed and to apply, and
    /// returns it.
    @discardableResult
    private func expectApplies(
        _ old: [Int64], _ new: [Int64], modified: Set<Int64>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CollectionChange {
        let change = WindowDiff.change(from: Self.rows(old), to: Self.rows(new), modified: modified)
        let problems = Self.problems(of: change, old: old, new: new, modified: modified)
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))", sourceLocation: sourceLocation)
        return change
    }

    /// What is wrong with `change` as the diff from `old` to `new`; empty when nothing is.
    private static func problems(
        of change: CollectionChange, old: [Int64], new: [Int64], modified: Set<Int64>
    ) -> [String] {
        var problems: [String] = []
        func check(_ name: String, _ indexes: [Int], below bound: Int) {
            if zip(indexes, indexes.dropFirst()).contains(where: { $0 >= $1 }) {
                problems.append("\(name) are not ascending and unique: \(indexes)")
            }
            if let first = indexes.first, first < 0 { problems.append("\(name) start below 0: \(indexes)") }
            if let last = indexes.last, last >= bound { problems.append("\(name) reach \(last), not below \(bound)") }
        }
        check("deletions", change.deletions, below: old.count)
        check("insertions", change.insertions, below: new.count)
        check("modifications", change.modifications, below: old.count)
        guard problems.isEmpty else { return problems }

        let applied = change.applied(to: old) { new[$0] }
        if applied != new { problems.append("applying gives \(applied)") }

        // Modifications: exactly the kept (not deleted) old rows whose id is modified.
        let deleted = Set(change.deletions)
        let expected = old.indices.filter { !deleted.contains($0) && modified.contains(old[$0]) }
        if change.modifications != expected {
            problems.append("modifications \(change.modifications), expected \(expected)")
        }
        return problems
    }

    /// The largest number of rows of `old` that appear in `new` in the same relative order:
    /// the longest increasing subsequence of their new positions, by the O(n²) recurrence.
    private static func quadraticLongestKeptRun(old: [Int64], new: [Int64]) -> Int {
        var position: [Int64: Int] = [:]
        for (index, id) in new.enumerated() { position[id] = index }
        let positions = old.compactMap { position[$0] }
        var lengths = [Int](repeating: 1, count: positions.count)
        for index in positions.indices {
            for earlier in 0..<index where positions[earlier] < positions[index] {
                lengths[index] = max(lengths[index], lengths[earlier] + 1)
            }
        }
        return lengths.max() ?? 0
    }

    /// A random window of 0 to 60 unique ids, the window after random deletions, insertions
    /// and moves, and a random set of modified ids (some of them not in the window).
    static func randomCase(seed: UInt64) -> (old: [Int64], new: [Int64], modified: Set<Int64>) {
        var random = SeededRandom(seed: seed)
        var nextID: Int64 = 1
        var old: [Int64] = []
        for _ in 0..<random.below(61) {
            old.append(nextID)
            nextID += Int64(1 + random.below(3))
        }
        if random.chance(30) {
            // Rows of a window are ordered by their sort key, not by rowid.
            for index in old.indices.reversed() where index > 0 {
                old.swapAt(index, random.below(index + 1))
            }
        }

        var new = old
        switch random.below(20) {
        case 0:
            new.reverse()
        case 1:
            new = (0..<random.below(20)).map { _ in
                defer { nextID += 1 }
                return nextID
            }
        default:
            let operations = random.chance(20) ? random.below(old.count + 10) : random.below(6)
            for _ in 0..<operations {
                switch random.index(weightedBy: [3, 3, 2]) {
                case 0 where !new.isEmpty:
                    new.remove(at: random.below(new.count))
                case 1:
                    new.insert(nextID, at: random.below(new.count + 1))
                    nextID += 1
                case 2 where !new.isEmpty:
                    let id = new.remove(at: random.below(new.count))
                    new.insert(id, at: random.below(new.count + 1))
                default:
                    break
                }
            }
        }

        var modified: Set<Int64> = []
        for id in old where random.chance(25) { modified.insert(id) }
        for id in new where random.chance(10) { modified.insert(id) }
        if random.chance(20) { modified.insert(nextID + 1) }
        return (old, new, modified)
    }
}
