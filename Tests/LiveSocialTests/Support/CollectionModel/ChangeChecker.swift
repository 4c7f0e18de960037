import LiveRepository

/// An observer of a collection that checks every delivery against the one before: a change
/// applied to the previous rows (deletions in the old indexes, insertions in the new) gives the
/// new rows exactly, every row that stayed but changed is listed as modified (old index), and
/// no row that stayed with the very same record is (only real changes reach observers). Also counts its calls,
/// to check that nothing comes after its token is invalidated.
@MainActor
final class ChangeChecker {
    /// The rows of the last delivery.
    private(set) var rows: [ModelRow] = []
    /// The statuses of the last delivery.
    private(set) var last: CollectionDeliveryRows?
    private(set) var calls = 0
    /// The first problem seen, with the delivery's number.
    private(set) var problem: String?
    /// Changes checked (non-nil changes), for the coverage counters.
    private(set) var changesChecked = 0
    private(set) var movesSeen = 0
    /// Whether the collection had delivered nothing when the observer was added.
    let wasEmptyAtStart: Bool

    init(addedBeforeFirstDelivery: Bool) { wasEmptyAtStart = addedBeforeFirstDelivery }

    /// The data status of the first delivery.
    private(set) var firstStatus: DataStatus?

    func receive(_ delivery: CollectionDeliveryRows) {
        calls += 1
        if calls == 1 { firstStatus = delivery.dataStatus }
        defer {
            rows = delivery.rows
            last = delivery
        }
        guard problem == nil else { return }
        // An observer added before the collection's first delivery saw it empty: its first call
        // carries the change from no rows. One added later gets nil first (the current state).
        if calls == 1 && !wasEmptyAtStart && delivery.change != nil {
            problem = "delivery 1 carried a change \(delivery.change!) though the observer came after the first delivery"
            return
        }
        guard let change = delivery.change else { return }  // nil: the observer reloads everything
        changesChecked += 1
        let old = rows
        let new = delivery.rows
        guard change.deletions.allSatisfy(old.indices.contains),
              change.modifications.allSatisfy(old.indices.contains),
              change.insertions.allSatisfy({ $0 >= 0 && $0 < new.count }),
              old.count - change.deletions.count + change.insertions.count == new.count
        else {
            problem = "delivery \(calls): change \(change) does not fit \(old.count) old and \(new.count) new rows"
            return
        }
        let applied = change.applied(to: old.map(\.identity)) { new[$0].identity }
        if applied != new.map(\.identity) {
            problem = "delivery \(calls): \(change) applied to \(old.map(\.identity)) gives \(applied), not \(new.map(\.identity))"
            return
        }
        if !Set(change.modifications).isDisjoint(with: change.deletions) {
            problem = "delivery \(calls): \(change) modifies a deleted row"
            return
        }
        // The rows that stayed, in order: old index → new index.
        let deleted = Set(change.deletions)
        let inserted = Set(change.insertions)
        let stayedOld = old.indices.filter { !deleted.contains($0) }
        let stayedNew = new.indices.filter { !inserted.contains($0) }
        let moved = Set(old.map(\.identity)).intersection(change.insertions.map { new[$0].identity })
        movesSeen += moved.count
        let modified = Set(change.modifications)
        for (oldIndex, newIndex) in zip(stayedOld, stayedNew) {
            guard old[oldIndex] != new[newIndex] else {
                // A field the model does not compare may have changed: only the same record is no change.
                if modified.contains(oldIndex), old[oldIndex].content == new[newIndex].content {
                    problem = "delivery \(calls): \(old[oldIndex]) did not change but old index \(oldIndex) is modified in \(change)"
                    return
                }
                continue
            }
            if !modified.contains(oldIndex) {
                problem = "delivery \(calls): \(old[oldIndex]) changed to \(new[newIndex]) but old index \(oldIndex) is not in \(change)"
                return
            }
        }
    }
}
