/// What the change hub tells observers of every commit (the chat collections of `LiveSocial`)
/// each time it publishes.
///
/// A store's own writes, which may carry a note each (see
/// `LiveStore.enqueueWrite(noting:completion:)`), come with those notes: the writer knows what it
/// wrote, so an observer takes that from the note and needs no read. What the store did not
/// write itself (commits of other connections and processes on the same file, found through the
/// change log, and a cache rebuilt by a recovery) comes as ``external``: which rows of which
/// tables changed, and an observer that cares reads them from the cache.
package struct StoreChangeDelivery: Sendable {
    /// The rows that other connections or processes changed, or that a recovery rebuilt; empty
    /// when the commit was only the store's own.
    package var external: StoreChange
    /// The notes of the store's own writes in this commit, in the order they were queued; only
    /// writes that committed (a write rolled back leaves none).
    package var notes: [any Sendable]

    package init(external: StoreChange = [:], notes: [any Sendable] = []) {
        self.external = external
        self.notes = notes
    }
}

/// Something on the main actor that hears about every commit of a store, with the notes of its
/// own writes (see ``StoreChangeDelivery``); registered with `LiveStore.addCommitObserver(_:)`.
@MainActor
package protocol StoreCommitObserver: AnyObject {
    /// Called after a commit of the store, or after commits of other connections were found,
    /// after the live objects and collections were told, and before the completions of the
    /// store's writes in that commit run.
    func storeDidCommit(_ delivery: StoreChangeDelivery)
}
