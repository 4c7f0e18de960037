import LiveRepository
import LiveSocial

/// The reference a live collection is compared with: the rows the client was told about (by
/// events, pages, mutation answers, catch-ups and the other writer of its cache file), the
/// query written out in the test, and the window rule of `LiveCollection`'s documentation.
///
/// The window is kept as its boundary: it shows every matching row from the anchor down to the
/// boundary's key (all of them at the end). A first page ends at the page's last row; a page
/// grows it by `pageSize` rows; a server page moves it to the end (the last page), to its last
/// record (the first server page), or to at least its last record (a later one); a new row therefore enters at the anchor's end at once, and at the far
/// end only once the window reaches it. Anchor order is descending in the key for every subject.
struct CollectionReference {
    let subject: CollectionSubject
    let pageSize: Int
    /// The cached rows of the shown kind, by identity.
    private(set) var known: [String: ModelRow] = [:]
    /// The key of the window's last row in anchor order, or nil for a window through the end.
    private(set) var boundary: Double?
    /// Whether the last server page had no next cursor.
    private(set) var exhausted = false
    /// The key of the last record of the last server page: where the next page's range starts.
    private var lastPageKey: Double?
    private(set) var dataStatus: DataStatus = .notExist
    private(set) var loadingStatus: LoadingStatus = .notLoading
    /// Whether the collection's `error` is set.
    private(set) var hasError = false

    init(subject: CollectionSubject, pageSize: Int) {
        self.subject = subject
        self.pageSize = pageSize
    }

    // MARK: Reading

    /// Every matching row, in anchor order.
    var anchorOrder: [ModelRow] {
        known.values.filter(\.matches).sorted { $0.key > $1.key }
    }

    /// The window, in anchor order.
    var window: [ModelRow] {
        let rows = anchorOrder
        guard let boundary else { return rows }
        return rows.filter { $0.key >= boundary }
    }

    /// The window in display order (index 0 first).
    var display: [ModelRow] { subject.anchorAtEnd ? window.reversed() : window }

    /// `hasNext` for a start anchor, `hasPrevious` for an end anchor.
    var canGrow: Bool { boundary != nil || !exhausted }

    // MARK: The cache

    mutating func upsert(_ record: SocialRecord) {
        guard let row = subject.row(record) else { return }
        known[row.identity] = row
    }

    mutating func remove(_ key: SocialRecordKey) {
        guard key.kind == subject.kind else { return }
        known[key.id] = nil
    }

    mutating func remove(identity: String) { known[identity] = nil }

    /// The answer of a mutation the client (or the other writer) made: its records stored, its
    /// removals removed, and the local copy of a create dropped.
    mutating func apply(_ result: SocialMutationResult, replacingLocal localIdentity: String? = nil) {
        if let localIdentity { known[localIdentity] = nil }
        for key in result.deleted { remove(key) }
        for record in result.records { upsert(record) }
    }

    /// A first server page another collection over the same cache file stored.
    mutating func absorb(_ page: FaultyAPI.Page) {
        var other = CollectionReference(subject: subject, pageSize: pageSize)
        other.known = known
        other.pageArrived(page)
        known = other.known
    }

    // MARK: The window

    /// Opens (or resets) the window on the first page of cached rows; a server page follows.
    mutating func firstPage(fetching: Bool) {
        let rows = anchorOrder
        boundary = rows.count > pageSize ? rows[pageSize - 1].key : nil
        if fetching {
            exhausted = false
            lastPageKey = nil
            loadingStatus = .loading
        }
        cacheJobFinished()
    }

    /// `nextPage()`/`previousPage()`: a page of cached rows, then the server's next page.
    /// Returns whether a server page was asked for.
    mutating func grow() -> Bool {
        guard canGrow else { return false }
        if let boundary {
            let beyond = anchorOrder.filter { $0.key < boundary }
            self.boundary = beyond.count > pageSize ? beyond[pageSize - 1].key : nil
        }
        cacheJobFinished()
        guard !exhausted else { return false }
        loadingStatus = .loading
        return true
    }

    /// A server page (or its failure) reached the client. The rows in `newer` changed in the
    /// cache after the server served the page: the page's older copy neither replaces nor
    /// removes them (their own events keep them current).
    mutating func pageArrived(_ page: FaultyAPI.Page, newer: Set<String> = []) {
        if page.failed {
            loadingStatus = .error
            hasError = true
            if window.isEmpty { dataStatus = .error }
            return
        }
        let rows = page.records.compactMap(subject.row)
        let ids = Set(rows.map(\.identity))
        let lastKey = rows.last?.key
        // The cached rows of the page's range that the server no longer has go (not local ones).
        let start = lastPageKey
        if !rows.isEmpty || page.nextCursor == nil {
            let end: Double? = page.nextCursor == nil ? nil : lastKey
            for row in known.values where row.matches && row.synced && !ids.contains(row.identity) && !newer.contains(row.identity) {
                if let start, row.key >= start { continue }
                if let end, row.key < end { continue }
                known[row.identity] = nil
            }
        }
        for row in rows where !newer.contains(row.identity) { known[row.identity] = row }
        if page.nextCursor == nil {
            boundary = nil
        } else if let lastKey, start == nil {
            // The first server page ends the window at its last record: cached rows beyond it
            // may have server rows between them and it, which later pages bring.
            boundary = lastKey
        } else if let lastKey {
            // Never hides rows already shown: the further of the page's end and the window's.
            let last = boundary ?? window.last?.key
            boundary = if let last, lastKey > last { last } else { lastKey }
        }
        exhausted = page.nextCursor == nil
        if let lastKey { lastPageKey = lastKey }
        dataStatus = .fresh
        loadingStatus = .loaded
        hasError = false
    }

    /// After a read of the cache: rows to show make a collection with nothing yet `.local`; no
    /// rows left after a failed load make it `.error` again ("nothing local to show").
    mutating func cacheJobFinished() {
        if !window.isEmpty && (dataStatus == .notExist || dataStatus == .error) {
            dataStatus = .local
        } else if window.isEmpty && dataStatus == .local && loadingStatus == .error {
            dataStatus = .error
        }
    }
}
