import Observation

/// A query's results, kept current from the cache, the server and real-time changes, and read
/// one row at a time.
///
/// A collection is a query over the cache plus a paging window. It opens at its ``anchor`` with
/// one page (``pageSize``, 20 by default) and grows a page at a time with ``nextPage()`` or
/// ``previousPage()``. Server pages are written into the cache and the collection re-reads its
/// window from the cache, so a collection, the live objects and the other collections over the
/// same rows always agree.
///
/// The flow is the live object's: cached rows are delivered at once with ``DataStatus/local``;
/// the server's first page follows with ``DataStatus/fresh``; then every change to a row the
/// window shows, and every new row that matches the query inside the window, calls observers
/// again with a ``CollectionChange`` leading to the new state. A new row enters only inside the
/// window: always at the anchor's end, at the far end only once the window reaches it.
///
/// Deliveries carry the rows they show, decoded off the main actor: the whole window when it
/// holds up to 1,024 rows, and otherwise the rows nearest the anchor, the rows around the last
/// one read with ``object(at:)``, and the rows that changed. Reading a row a delivery carried
/// never touches the cache. A larger window is not all in memory: it holds each row's sort key,
/// so a window of 100,000 rows costs a few megabytes, and the rows ahead of a reader moving
/// through ``object(at:)`` (a scrolling list) are read ahead. Only a jump far from the decoded
/// rows makes ``object(at:)`` read a few rows of a file cache at once, through the store's
/// reading connection, which never waits behind a write.
///
/// ```swift
/// let messages = repository.messages(channelId: "general")
/// token = messages.observe { [weak self] collection, change, error in
///     guard let self else { return }
///     tableView.apply(change)                 // nil: reload everything
///     footer.isHidden = !collection.hasPrevious
/// }
/// ```
@MainActor
public final class LiveCollection<Record: CacheRecord>: Observable {
    /// The query the collection shows.
    public let query: CacheQuery<Record>
    /// The number of rows a page adds.
    public let pageSize: Int
    /// The end the collection opens at and grows from.
    public let anchor: CollectionAnchor

    let store: LiveStore
    let reader: WindowReader<Record>
    let fetchPage: (@Sendable (_ cursor: String?, _ limit: Int) async throws -> RemotePage<Record>)?
    let revisions = Revisions()
    /// Reads this collection's refreshes on the store's queue when other processes commit (nil
    /// when the store does not watch its file); set once in `init`.
    private(set) var preparer: RefreshPreparer<Record>?
    private let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path into a generic class is made anew each time one is
    /// written (the runtime instantiates it for `Record`), a cost every delivery paid.
    private let stateKeyPath: KeyPath<LiveCollection, State> = \.state
    /// Everything the collection keeps track of, in one value (see ``State``): what observers
    /// see, the loading under way and the decoded records.
    var state: State
    /// How many times ``object(at:)`` or ``allObjects()`` read the cache on demand (tests).
    var waitingReads: Int { state.reading.waitingReads }

    /// Creates a collection and starts loading it: the first page from the cache at once, and
    /// from the server through `fetchPage` when one is given.
    ///
    /// - Parameters:
    ///   - store: the cache the rows are read from and server pages are written to.
    ///   - query: which records the collection shows, and in which order.
    ///   - pageSize: the rows a page adds; 20 by default, as in Amity's SDK.
    ///   - anchor: the end to open at; see ``CollectionAnchor``.
    ///   - fetchPage: asks the server for the page at a cursor (nil: the first page), starting
    ///     from the anchor, with at most `limit` records. Nil for a cache-only collection.
    public init(
        store: LiveStore,
        query: CacheQuery<Record>,
        pageSize: Int = 20,
        anchor: CollectionAnchor = .start,
        fetchPage: (@Sendable (_ cursor: String?, _ limit: Int) async throws -> RemotePage<Record>)?
    ) {
        precondition(pageSize > 0, "a page holds at least one row")
        self.store = store
        self.query = query
        self.pageSize = pageSize
        self.anchor = anchor
        self.fetchPage = fetchPage
        let ascending = anchor == .start ? query.ascending : !query.ascending
        self.reader = WindowReader(query: query, ascending: ascending)
        self.state = State(window: CollectionWindow(ascending: ascending))
        store.hub.addCollection(self, table: Record.table.name)
        preparer = Self.makePreparer(for: self, store: store)
        schedule(.firstPage)
        loadServerPage(cursor: nil)
    }

    // MARK: Reading

    /// Where the rows come from: nothing yet, the cache, or the server.
    public var dataStatus: DataStatus { read().status.dataStatus }
    /// The state of the latest server request.
    public var loadingStatus: LoadingStatus { read().status.loadingStatus }
    /// The latest error from the server or the cache, or nil. Cleared by the next success.
    public var error: (any Error)? { read().status.error }
    /// The number of rows in the window.
    public var count: Int { read().window.count }

    /// The record at `index` (0 is the first row of the query's order in the window), or nil
    /// when `index` is out of range or the row was deleted a moment ago (a delivery follows).
    public func object(at index: Int) -> Record? {
        let rows = read().window.rows
        guard rows.indices.contains(index) else { return nil }
        state.reading.readerIndex = index
        let row = rows[anchorIndex(index, count: rows.count)]
        if let record = decodedRecord(of: row) {
            prefetchAround(index)
            return record
        }
        decodeNear(index)
        return decodedRecord(of: row)
    }

    /// Every record in the window, in order. A window over 1,024 rows is not all decoded: this
    /// then reads the rest at once (beside the writes, for a file cache). Prefer ``count`` and
    /// ``object(at:)`` for large windows.
    public func allObjects() -> [Record] {
        let rows = publicOrder(read().window.rows)
        var records = (0..<rows.count).map { decodedRecord(of: rows[$0]) }
        let missing = records.indices.filter { records[$0] == nil }
        if !missing.isEmpty {
            let read = decode(missing.map { rows[$0] })
            for index in missing { records[index] = read[rows[index].rowid] }
        }
        return records.compactMap { $0 }
    }

    /// The records of the window, in order: the same as ``allObjects()``, as a property.
    public var snapshots: [Record] { allObjects() }

    /// Whether a page can be added after the window's last row.
    public var hasNext: Bool { anchor == .start && canGrow(read()) }
    /// Whether a page can be added before the window's first row.
    public var hasPrevious: Bool { anchor == .end && canGrow(read()) }

    private func canGrow(_ state: State) -> Bool {
        state.window.boundary != .end || (fetchPage != nil && !state.server.exhausted)
    }

    func read() -> State {
        registrar.access(self, keyPath: stateKeyPath)
        return state
    }

    /// Maps a public index to the window's anchor-order index and back (the same map both ways).
    func anchorIndex(_ index: Int, count: Int) -> Int {
        anchor == .start ? index : count - 1 - index
    }

    /// Applies `body` in one observable mutation and calls observers with `change` when
    /// something they can see changed.
    func update(change: CollectionChange?, publish: Bool = true, _ body: (inout State) -> Void) {
        var next = state
        body(&next)
        let visible = next.status.isVisibleChange(from: state.status) || !(change?.isEmpty ?? true)
        registrar.withMutation(of: self, keyPath: stateKeyPath) { state = next }
        if visible && publish { revisions.publish(change) }
    }

    // MARK: Observing

    /// Calls `block` now if there is something to show, then after every visible change, until
    /// the returned token is invalidated or released.
    ///
    /// The token keeps this collection working until then (its loading and its real-time
    /// updates), so holding the token alone is enough.
    ///
    /// The block gets this collection, the ``CollectionChange`` from the state the observer saw
    /// last, and the error of the delivery, if any. It is called on the main actor. The change is
    /// nil when the observer missed a state, and on the call that shows a later observer the
    /// current state; an observer added before the first delivery has seen the empty collection,
    /// so its first call carries the change from no rows.
    public func observe(
        _ block: @escaping (LiveCollection<Record>, CollectionChange?, (any Error)?) -> Void
    ) -> NotificationToken {
        revisions.observe(keeping: self) { [unowned self] change in block(self, change, state.status.error) }
    }

    /// Calls `block` exactly once, then ends the observation.
    ///
    /// By default the call comes with the first delivery, which is the cached rows when there
    /// are some, as the seed documents. Pass `.fresh` to wait for the server's first page (or its
    /// error). Keep the token until the call comes: releasing it cancels the wait. Until then the
    /// token keeps this collection working, as ``observe(_:)``'s does.
    public func observeOnce(
        _ condition: ObserveOnceCondition = .firstDelivery,
        _ block: @escaping (LiveCollection<Record>, CollectionChange?, (any Error)?) -> Void
    ) -> NotificationToken {
        revisions.observe(keeping: self, once: true, accept: { [unowned self] in
            condition == .firstDelivery || state.status.dataStatus == .fresh || state.status.error != nil
        }) { [unowned self] change in block(self, change, state.status.error) }
    }
}

extension LiveCollection: CacheChangeListener {
    func cacheDidChange(_ change: TableChange) {
        if change.isRebuilt {
            resetPage()
        } else {
            schedule(.refresh(rowids: change.rowids, wholeTable: change.isWholeTable))
        }
    }
}
