import LiveData

/// A place in a store's order of writes, and what the writes queued after it have changed: how a
/// server page tells the rows written since its request went out (a pending message's server
/// copy, a real-time event) from the rows it may remove as stale.
///
/// An observer hears of a commit on the main actor, some time after the commit: a page that
/// answers in between would take a row written after its request for a row the server no longer
/// has, since the observer could not have noted it yet. A mark knows in the store's own order:
/// every transaction that took writes queued after ``LiveStore/markWrites()`` records its change
/// here when it commits (on the store's queue, before anything is delivered), and a write asks
/// ``CacheTransaction/changes(in:since:)`` inside its own transaction, which adds the writes
/// before it in the same transaction (``CacheTransaction/storeServerPage(_:of:after:through:provesRange:since:storing:)``
/// does so).
///
/// A transaction that mixed writes from before the mark with writes after it counts whole, so the
/// ids can be more than those written after the mark, never fewer. The store holds its marks
/// weakly: end one with ``end()`` once its page is written, or let it go.
package final class WriteMark: Sendable {
    private let changed = LockedState<StoreChange>([:])
    private weak let store: LiveStore?

    init(store: LiveStore) {
        self.store = store
    }

    /// Called on the store's queue after a commit that took writes queued after the mark.
    func record(_ change: StoreChange) {
        changed.withLock { $0.merge(change) { $0.union($1) } }
    }

    /// What the writes after the mark changed in `table`, as committed so far.
    func committed(in table: String) -> TableChange? {
        changed.withLock { $0[table] }
    }

    /// Stops recording: the store forgets the mark.
    package func end() {
        store?.forget(self)
    }
}
