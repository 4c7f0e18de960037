/// How a live collection's snapshot changed: the rows that left, arrived or changed in place.
///
/// The indexes use the two index spaces of a table or collection view's batch update:
///
/// - ``deletions`` and ``modifications`` are indexes in the **old** snapshot;
/// - ``insertions`` are indexes in the **new** snapshot.
///
/// Applying a change means removing the deleted rows from the old snapshot (from the highest
/// index down, so that each index still means what it meant), then inserting the new rows at
/// their indexes in ascending order. The rows that remain keep their relative order. A row that
/// moved appears as a deletion at its old index plus an insertion at its new one, and is never
/// also reported as a modification. Every list is sorted ascending, without duplicates.
///
/// A live collection identifies a row by its record's `id`: a row that left and a row that
/// arrived are a deletion and an insertion even when they sit at the same index (and even when
/// SQLite gave the new row the old one's rowid), so a list keyed by `id` can apply the change
/// as given.
///
/// ```swift
/// // old: [a, b, c, d]    new: [a, e, c, b]
/// // b moved, d left, e arrived, and c's content changed in place.
/// let change = CollectionChange(deletions: [1, 3], insertions: [1, 3], modifications: [2])
/// // remove old[3] (d) and old[1] (b)  → [a, c]
/// // insert new[1] (e) and new[3] (b)  → [a, e, c, b]
/// // reload old[2] (c), now at new index 2
/// ```
///
/// ``applied(to:inserting:)`` performs exactly these steps on an array.
public struct CollectionChange: Sendable, Hashable {
    /// Indexes in the old snapshot of the rows that were removed or moved away, ascending.
    public let deletions: [Int]
    /// Indexes in the new snapshot of the rows that were added or moved there, ascending.
    public let insertions: [Int]
    /// Indexes in the old snapshot of the rows that stayed in place but whose content changed,
    /// ascending. Such a row is neither deleted nor inserted.
    public let modifications: [Int]

    /// Creates a change from its three index lists.
    ///
    /// Each list must be sorted ascending without duplicates (debug builds check this), and an
    /// index in `modifications` must not also be in `deletions`.
    public init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = []) {
        assert(Self.isStrictlyAscending(deletions), "CollectionChange: deletions must be ascending and unique")
        assert(Self.isStrictlyAscending(insertions), "CollectionChange: insertions must be ascending and unique")
        assert(Self.isStrictlyAscending(modifications), "CollectionChange: modifications must be ascending and unique")
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// Whether nothing changed: no deletions, insertions or modifications.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// Applies the change to `old`, the snapshot it was computed from, and returns the new one.
    ///
    /// The rows at ``deletions`` are removed, then `inserting` supplies the row for each index in
    /// ``insertions``, in ascending order. Modified rows are kept as they are in `old`: replace
    /// them afterwards if their content matters.
    ///
    /// - Parameters:
    ///   - old: the snapshot the change was computed from.
    ///   - inserting: returns the row at an inserted index of the new snapshot.
    /// - Returns: an array of `old.count - deletions.count + insertions.count` rows.
    /// - Precondition: every deleted index is an index of `old`, and every inserted index is an
    ///   index of the result.
    public func applied<Element>(
        to old: [Element],
        inserting: (_ newIndex: Int) throws -> Element
    ) rethrows -> [Element] {
        precondition(
            deletions.isEmpty || (deletions[0] >= 0 && deletions[deletions.count - 1] < old.count),
            "CollectionChange.applied(to:inserting:): a deleted index is out of range")
        let count = old.count - deletions.count + insertions.count
        precondition(
            insertions.isEmpty || (insertions[0] >= 0 && insertions[insertions.count - 1] < count),
            "CollectionChange.applied(to:inserting:): an inserted index is out of range")
        var result: [Element] = []
        result.reserveCapacity(count)
        var nextDeletion = 0  // position in `deletions`
        var nextInsertion = 0  // position in `insertions`
        var oldIndex = 0
        for newIndex in 0..<count {
            if nextInsertion < insertions.count, insertions[nextInsertion] == newIndex {
                result.append(try inserting(newIndex))
                nextInsertion += 1
                continue
            }
            // The next surviving row of `old`.
            while nextDeletion < deletions.count, deletions[nextDeletion] == oldIndex {
                nextDeletion += 1
                oldIndex += 1
            }
            result.append(old[oldIndex])
            oldIndex += 1
        }
        return result
    }

    private static func isStrictlyAscending(_ indexes: [Int]) -> Bool {
        var index = 1
        while index < indexes.count {
            if indexes[index - 1] >= indexes[index] { return false }
            index += 1
        }
        return true
    }
}
