/// Where a message collection stands, as a pure state machine: inputs in, the action to run out;
/// no I/O, no clock, no tasks.
///
/// It holds the collection's phase, one ``End`` for each side of the loaded part of history, and
/// the collection's ``SyncPoint``. The collection (the driver) runs the actions it returns on the
/// main actor and reports their results back as inputs; the messages themselves (the list, the
/// user's unsent copies) are the driver's, since they are data, not state.
struct MessageCollectionState: Equatable {
    enum Phase: Equatable {
        /// Made, not started.
        case idle
        /// Started: reading the cache, then waiting for the server's first answer. Changes apply;
        /// pages are refused.
        case starting
        /// The start finished (the server answered or failed): pages load, and the connection's
        /// return brings a catch-up or a load from the server.
        case running
        /// A catch-up found a huge gap: the list is stale and follows no more changes (pages still
        /// load); it waits to be disposed.
        case stale
        /// Disposed: nothing more happens.
        case disposed
    }

    /// A side of the loaded part of history.
    enum Side: Equatable, CaseIterable {
        /// Older messages: ``MessageCollection/loadPrevious()``.
        case older
        /// Newer messages: ``MessageCollection/loadNext()``.
        case newer
    }

    /// One side of the loaded part of history.
    struct End: Equatable {
        /// Where the loaded part ends on this side.
        var bound: HistoryBound
        /// Whether a page of this side is loading.
        var isLoading = false
        /// Whether this side holds messages the server did not confirm: a page that came from the
        /// cache because the server failed, or a cache a recovery emptied. The list may miss
        /// messages the cache never had, or hold some the server deleted, until the next load from
        /// the server, which the change log cannot replace.
        var isFromCache = false
    }

    /// What the driver runs after an input.
    enum Action: Equatable {
        case none
        /// Hand `error` to the caller: the start or the page does not happen.
        case refuse(ChatError)
        /// Follow the store's commits, read the cache around the starting point (then report
        /// ``cacheRead(_:)``), then ask the server (then report ``serverRead(_:through:connected:)``
        /// or ``serverFailed()``).
        case start
        /// Ask the server for the messages around the starting point again and report what
        /// changed. A wait for a retry of the catch-up under way ends.
        case reload
        /// Read the change log after `since`, then report ``catchUpFinished(through:connected:)``,
        /// ``catchUpFailed(connected:)`` or ``hugeGapFound()``. A wait for a retry under way ends.
        case catchUp(since: Int64)
        /// Wait for the next retry of the client's ``RetryPolicy``, then report ``retryDue()``.
        case retryCatchUpLater
        /// End the wait for a retry of the catch-up, if one is under way.
        case stopRetrying
        /// Load a page of `side`: the cache's, then the server's; report ``pageRead(_:bound:)`` or
        /// ``pageReadFromCache(_:through:)``, and ``pageEnded(_:)`` in every case.
        case loadPage(Side)
        /// Apply the committed change to the list.
        case apply
        /// Read the rows another connection changed, then report ``externalRowsRead()``.
        case readExternal
        /// Stop following commits and cancel the work under way.
        case stop
    }

    private(set) var phase = Phase.idle
    private(set) var older = End(bound: .including(MessagePosition(createdAt: -.infinity, id: "")))
    private(set) var newer = End(bound: .including(MessagePosition(createdAt: .infinity, id: "")))
    private(set) var sync = SyncPoint()

    // MARK: Reading

    /// The loaded part of history.
    var range: HistoryRange { HistoryRange(older: older.bound, newer: newer.bound) }
    var hasPrevious: Bool { !older.bound.isOpen }
    var hasNext: Bool { !newer.bound.isOpen }
    var isDisposed: Bool { phase == .disposed }
    /// Whether committed changes reach the list: from the start until a huge gap or disposal.
    var followsChanges: Bool { phase == .starting || phase == .running }

    // MARK: Starting

    /// The app started the collection.
    mutating func start() -> Action {
        switch phase {
        case .disposed: return .refuse(.disposed)
        case .idle: phase = .starting; return .start
        case .starting, .running, .stale: return .refuse(.alreadyStarted)
        }
    }

    /// The start's cache read found the loaded part to be `range`.
    mutating func cacheRead(_ range: HistoryRange) {
        guard !isDisposed else { return }
        older.bound = range.older
        newer.bound = range.newer
    }

    /// The server answered a first load or a reload with `range`, its changes going up to `sequence`.
    mutating func serverRead(_ range: HistoryRange, through sequence: Int64, connected: Bool) {
        guard !isDisposed else { return }
        older.bound = range.older
        newer.bound = range.newer
        older.isFromCache = false
        newer.isFromCache = false
        sync.serverAnswered(through: sequence, connected: connected)
        if phase == .starting { phase = .running }
    }

    /// The server failed a first load or a reload: the start is over all the same.
    mutating func serverFailed() {
        if phase == .starting { phase = .running }
    }

    // MARK: Paging

    /// The app asked for a page of `side`.
    mutating func pageRequested(_ side: Side) -> Action {
        switch phase {
        case .disposed: return .refuse(.disposed)
        case .idle, .starting: return .refuse(.notStarted)
        case .running, .stale: break
        }
        guard !self[side].isLoading else { return .refuse(.loadInProgress) }
        guard !self[side].bound.isOpen else { return .refuse(.noMorePages) }
        self[side].isLoading = true
        return .loadPage(side)
    }

    /// The server answered a page of `side`: the side now ends at `bound`.
    mutating func pageRead(_ side: Side, bound: HistoryBound) {
        guard !isDisposed else { return }
        self[side].bound = bound
    }

    /// The server failed a page of `side` and its cached messages stay, the last at `end`: the
    /// side ends there, unconfirmed.
    mutating func pageReadFromCache(_ side: Side, through end: MessagePosition) {
        guard !isDisposed else { return }
        self[side].bound = .including(end)
        self[side].isFromCache = true
    }

    /// The page of `side` is over, however it ended.
    mutating func pageEnded(_ side: Side) {
        self[side].isLoading = false
    }

    // MARK: Changes

    /// A change committed to the cache through this client; `sequence` is that of its real-time
    /// event, if one made it.
    mutating func changeCommitted(sequence: Int64?) -> Action {
        guard followsChanges else { return .none }
        sync.changeCommitted(sequence: sequence)
        return .apply
    }

    /// Another connection committed to the collection's rows; `rebuilt` when a recovery emptied
    /// the cache, which says nothing about the messages: the list stays and is loaded from the
    /// server again, now (when `connected`) or once connected.
    mutating func externalCommit(rebuilt: Bool, connected: Bool) -> Action {
        guard followsChanges else { return .none }
        guard rebuilt else { return .readExternal }
        older.isFromCache = true
        newer.isFromCache = true
        return connected ? self.connected() : .none
    }

    /// The rows another connection changed were read.
    func externalRowsRead() -> Action {
        followsChanges ? .apply : .none
    }

    // MARK: The connection

    /// The connection came back: load from the server when its first answer is still owed or a
    /// side is unconfirmed (the change log holds changes since the sync point, not the messages
    /// the cache never had), else catch up with the change log.
    mutating func connected() -> Action {
        guard phase == .running, !sync.isCatchingUp else { return .none }
        if sync.point == nil || older.isFromCache || newer.isFromCache { return .reload }
        if case .catchUp(let since) = sync.connected() { return .catchUp(since: since) }
        return .none
    }

    /// The connection dropped: a failed catch-up waits for its return instead of a retry.
    @discardableResult
    mutating func disconnected() -> Action {
        sync.disconnected() == .stopRetrying ? .stopRetrying : .none
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
        sync.catchUpFailed(retrying: connected && phase == .running) == .retryLater ? .retryCatchUpLater : .none
    }

    /// The wait after a failed catch-up is over: try again as on a reconnection.
    mutating func retryDue() -> Action {
        guard sync.isWaitingToRetry else { return .none }
        return connected()
    }

    /// The catch-up found more changed messages than the threshold.
    mutating func hugeGapFound() {
        guard !isDisposed else { return }
        phase = .stale
    }

    // MARK: Disposing

    /// The app disposed of the collection.
    mutating func dispose() -> Action {
        guard !isDisposed else { return .none }
        phase = .disposed
        return .stop
    }

    private subscript(side: Side) -> End {
        get { side == .older ? older : newer }
        set { if side == .older { older = newValue } else { newer = newValue } }
    }
}
