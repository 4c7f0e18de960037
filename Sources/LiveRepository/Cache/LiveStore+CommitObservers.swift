extension LiveStore {
    /// Starts telling `observer` about every commit of the store (its own writes, with their
    /// notes, and what other connections and processes on its file committed, or a recovery
    /// rebuilt), on the main actor, until it is released or removed. See ``StoreChangeDelivery``.
    @MainActor
    package func addCommitObserver(_ observer: any StoreCommitObserver) {
        hub.addCommitObserver(observer)
    }

    /// Stops telling `observer` about commits.
    @MainActor
    package func removeCommitObserver(_ observer: any StoreCommitObserver) {
        hub.removeCommitObserver(observer)
    }
}
