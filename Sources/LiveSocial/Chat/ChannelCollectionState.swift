/// Where a channel collection stands, as a pure state machine: inputs in, the action to run out;
/// no I/O, no clock, no tasks.
///
/// It holds the collection's phase, its ``Paging`` (the list grows at one side only, its bottom)
/// and its ``SyncPoint``. The collection (the driver) runs the actions it returns on the main
/// actor and reports their results back as inputs; the channels themselves (the list, the
/// changes that arrive while a page loads) are the driver's, since they are data, not state.
struct ChannelCollectionState: Equatable {
    enum Phase: Equatable {
        /// Made, not started.
        case idle
        /// Started: follows the store's commits and the connection; pages load.
        case listing
        /// Disposed: nothing more happens.
        case disposed
    }

    /// A channel's place in the list, as the server's pages are cut: its last activity and its
    /// id; the list runs from the greatest place down.
    struct Place: Comparable {
        var activity: Double
        var id: String

        static func < (a: Place, b: Place) -> Bool {
            (a.activity, a.id) < (b.activity, b.id)
        }
    }

    /// The bottom of the list, where pages add channels.
    struct Paging: Equatable {
        /// The server's cursor for the next page (nil before the first, and after the last).
        var cursor: String?
        /// Where the server's pages so far end (nil before the first): the next one starts after it.
        var end: Place?
        /// Whether more channels can be loaded.
        var hasMore = true
        /// Whether a page is loading.
        var isLoading = false
    }

    /// What the driver runs after an input.
    enum Action: Equatable {
        case none
        /// Hand `error` to the caller: the page does not happen.
        case refuse(ChatError)
        /// Follow the store's commits and the connection.
        case start
        /// Read a page of cached channels after the list's last, then report ``cachePageRead()``.
        case readCachePage
        /// Ask the server for its latest sequence, then for the page at `cursor`, then report
        /// ``serverPageRead(cursor:end:sequence:connected:)`` or ``serverPageFailed()``.
        case readServerPage(cursor: String?)
        /// Apply the committed change to the list.
        case apply
        /// Read the channels another connection changed, then report ``externalRowsRead()``.
        case readExternal
        /// Read the channels' change log after `since`, then report ``catchUpRead()``. A wait for
        /// a retry under way ends.
        case catchUp(since: Int64)
        /// Commit the change log read, then report ``catchUpFinished(through:connected:)`` or
        /// ``catchUpFailed(connected:)``.
        case commitCatchUp
        /// Wait for the next retry of the client's ``RetryPolicy``, then report ``retryDue()``.
        case retryCatchUpLater
        /// End the wait for a retry of the catch-up, if one is under way.
        case stopRetrying
        /// Stop following commits and the connection, and cancel the work under way.
        case stop
    }

    private(set) var phase = Phase.idle
    private(set) var paging = Paging()
    private(set) var sync = SyncPoint()

    // MARK: Reading

    var isDisposed: Bool { phase == .disposed }
    /// Whether a page came from the server: the server's first answer set the sync point.
    var hasLoadedFromServer: Bool { sync.point != nil }

    // MARK: Starting

    /// The collection was made: it starts at once.
    mutating func start() -> Action {
        guard phase == .idle else { return .none }
        phase = .listing
        return .start
    }

    // MARK: Paging

    /// The app asked for the next page.
    mutating func pageRequested() -> Action {
        switch phase {
        case .disposed: return .refuse(.disposed)
        case .idle: return .refuse(.notStarted)
        case .listing: break
        }
        guard !paging.isLoading else { return .refuse(.loadInProgress) }
        guard paging.hasMore else { return .refuse(.noMorePages) }
        paging.isLoading = true
        return .readCachePage
    }

    /// The page's cached channels were read (and shown): ask the server.
    func cachePageRead() -> Action {
        guard !isDisposed else { return .refuse(.disposed) }
        return .readServerPage(cursor: paging.cursor)
    }

    /// The server answered the page, whose next cursor is `cursor` and whose part of the list ends
    /// at `end` (nil: at the bottom); `sequence` is the server's latest, asked before the page.
    /// The first page the server answers sets the sync point there; later pages leave it alone.
    mutating func serverPageRead(cursor: String?, end: Place?, sequence: Int64, connected: Bool) -> Action {
        guard !isDisposed else { return .refuse(.disposed) }
        paging.cursor = cursor
        paging.hasMore = cursor != nil
        paging.end = end
        if !hasLoadedFromServer { sync.serverAnswered(through: sequence, connected: connected) }
        return .none
    }

    /// The server failed the page: the driver returns the cached page or the error, unless disposed.
    func serverPageFailed() -> Action {
        isDisposed ? .refuse(.disposed) : .none
    }

    /// The page is over, however it ended.
    mutating func pageEnded() {
        paging.isLoading = false
    }

    // MARK: Changes

    /// A change committed to the cache through this client; `sequence` is that of its real-time
    /// event, if one made it.
    mutating func changeCommitted(sequence: Int64?) -> Action {
        guard phase == .listing else { return .none }
        sync.changeCommitted(sequence: sequence)
        return .apply
    }

    /// Another connection committed to the channels; `rebuilt` when a recovery emptied the cache,
    /// which says nothing about the server's channels: the list stays as it is.
    func externalCommit(rebuilt: Bool) -> Action {
        guard phase == .listing, !rebuilt else { return .none }
        return .readExternal
    }

    /// The channels another connection changed were read.
    func externalRowsRead() -> Action {
        phase == .listing ? .apply : .none
    }

    // MARK: The connection

    /// The connection came back: catch up with the change log from the sync point, if there is one
    /// and no catch-up runs.
    mutating func connected() -> Action {
        guard phase == .listing, case .catchUp(let since) = sync.connected() else { return .none }
        return .catchUp(since: since)
    }

    /// The connection dropped: a failed catch-up waits for its return instead of a retry.
    @discardableResult
    mutating func disconnected() -> Action {
        sync.disconnected() == .stopRetrying ? .stopRetrying : .none
    }

    /// The wait after a failed catch-up is over: catch up again from the same point.
    mutating func retryDue() -> Action {
        guard phase == .listing, case .catchUp(let since) = sync.retryDue() else { return .none }
        return .catchUp(since: since)
    }

    /// The catch-up read the change log to its end: commit it, unless the collection was disposed
    /// meanwhile (then the catch-up is abandoned).
    mutating func catchUpRead() -> Action {
        guard !isDisposed else {
            sync.catchUpFailed()
            return .none
        }
        return .commitCatchUp
    }

    /// The catch-up applied the change log up to `sequence`; when the connection dropped and came
    /// back while it ran, what a reconnection does follows.
    mutating func catchUpFinished(through sequence: Int64, connected: Bool) -> Action {
        sync.catchUpFinished(through: sequence, connected: connected) ? self.connected() : .none
    }

    /// The catch-up failed: the next connection tries again from the same point; so does a retry
    /// after a wait when `connected` (the client is not known to be offline: a server failure
    /// while the connection stays up, after which no reconnection may come).
    @discardableResult
    mutating func catchUpFailed(connected: Bool = false) -> Action {
        sync.catchUpFailed(retrying: connected && phase == .listing) == .retryLater ? .retryCatchUpLater : .none
    }

    // MARK: Disposing

    /// The app disposed of the collection.
    mutating func dispose() -> Action {
        guard !isDisposed else { return .none }
        phase = .disposed
        return .stop
    }
}
