/// Paging, server pages and window reads of a live collection.
extension LiveCollection {
    // MARK: Paging

    /// Adds a page after the window's last row: cached rows at once, then the server's next page.
    /// Only for collections anchored at the ``CollectionAnchor/start``; does nothing when
    /// ``hasNext`` is false.
    public func nextPage() {
        guard anchor == .start else { return }
        grow()
    }

    /// Adds a page before the window's first row: cached rows at once, then the server's next
    /// page. Only for collections anchored at the ``CollectionAnchor/end``; does nothing when
    /// ``hasPrevious`` is false.
    public func previousPage() {
        guard anchor == .end else { return }
        grow()
    }

    /// Shrinks the window back to its first page and asks the server for that page again.
    public func resetPage() {
        fetchGeneration += 1
        wantedServerPages = 0
        update(change: nil, publish: false) { $0.server = CollectionJobs.ServerProgress() }
        schedule(.firstPage)
        loadServerPage(cursor: nil)
    }

    private func grow() {
        guard canGrowNow else { return }
        schedule(.extend)
        guard fetchPage != nil, !state.server.exhausted else { return }
        if state.loadingStatus == .loading {
            wantedServerPages += 1
        } else {
            loadServerPage(cursor: state.server.cursor)
        }
    }

    private var canGrowNow: Bool { anchor == .start ? hasNext : hasPrevious }

    // MARK: Server pages

    /// Asks the server for the page at `cursor` (nil: the first page).
    func loadServerPage(cursor: String?) {
        guard let fetchPage else { return }
        fetchGeneration += 1
        let generation = fetchGeneration
        let limit = pageSize
        update(change: nil) { $0.loadingStatus = .loading }
        Task { [weak self] in
            let result: Result<RemotePage<Record>, any Error>
            do { result = .success(try await fetchPage(cursor, limit)) } catch { result = .failure(error) }
            self?.serverAnswered(result, generation: generation)
        }
    }

    private func serverAnswered(_ result: Result<RemotePage<Record>, any Error>, generation: Int) {
        guard generation == fetchGeneration else { return }
        guard cacheFirst.isOpen else {
            return cacheFirst.hold { [weak self] in self?.serverAnswered(result, generation: generation) }
        }
        switch result {
        case .failure(let error):
            wantedServerPages = 0
            update(change: nil) {
                $0.loadingStatus = .error
                $0.error = error
                if $0.window.count == 0 { $0.dataStatus = .error }
            }
        case .success(let page):
            let reader = self.reader
            let start = state.server.lastKey
            let lastKey = page.records.last.map(reader.key(of:))
            let end: CollectionWindow.Boundary = page.nextCursor == nil ? .end : lastKey.map { .through($0) } ?? .end
            let records = page.records
            if held == nil { held = (publicOrder(state.window.rows), []) }
            store.enqueueWrite({ transaction in
                try transaction.upsert(contentsOf: records)
                // An empty page that is not the last covers no known range: nothing is stale.
                if !records.isEmpty || page.nextCursor == nil {
                    try reader.deleteStale(after: start, through: end, keeping: records.map(\.id), in: transaction)
                }
            }, completion: { [weak self] error in
                MainActor.assumeIsolated { self?.serverPageStored(page, lastKey: lastKey, error: error, generation: generation) }
            })
        }
    }

    private func serverPageStored(_ page: RemotePage<Record>, lastKey: RowKey?, error: (any Error)?, generation: Int) {
        guard generation == fetchGeneration else { return releaseHeldChange() }
        if let error {
            releaseHeldChange()
            update(change: nil) { $0.loadingStatus = .error; $0.error = error }
            return
        }
        // The last page reaches the end; another reaches its last record (an empty one, nothing).
        let target: CollectionWindow.Boundary? = page.nextCursor == nil ? .end : lastKey.map { .through($0) }
        schedule(.reach(target) { server in
            server.cursor = page.nextCursor
            server.exhausted = page.nextCursor == nil
            server.pagesLoaded += 1
            if let lastKey { server.lastKey = lastKey }
        })
        if wantedServerPages > 0, page.nextCursor != nil {
            wantedServerPages -= 1
            loadServerPage(cursor: page.nextCursor)
        }
    }

    // MARK: Window reads

    func schedule(_ job: CollectionJobs.Job) {
        jobs.enqueue(job)
        runNextJob()
    }

    private func runNextJob() {
        guard !jobs.isRunning, let job = jobs.next() else { return }
        jobs.isRunning = true
        let window = state.window
        let reader = self.reader
        let pageSize = self.pageSize
        let decodedRowids = Set(decoded.keys)
        // The rows nearest the anchor, decoded ahead of time: two pages, but never more than a
        // fraction of the decoded-records limit, so a huge page does not load every record.
        let prefetch = min(max(pageSize * 2, 40), Self.decodedLimit / 8)
        store.read({ connection in
            try Self.perform(job, on: window, reader: reader, pageSize: pageSize,
                             refreshing: decodedRowids, prefetch: prefetch, connection: connection)
        }, completion: { [weak self] result in
            self?.finish(job, result)
        })
    }

    private struct Outcome: Sendable {
        var window: CollectionWindow
        var touched: Set<Int64>
        var records: [Int64: Record]
    }

    /// On the store's queue: the window after `job`, the rows it touched, and decoded records
    /// for the rows nearest the anchor and the touched rows already decoded.
    private nonisolated static func perform(
        _ job: CollectionJobs.Job, on window: CollectionWindow, reader: WindowReader<Record>, pageSize: Int,
        refreshing decodedRowids: Set<Int64>, prefetch: Int, connection: SQLiteConnection
    ) throws -> Outcome {
        var next = window
        var touched: Set<Int64> = []
        switch job {
        case .firstPage:
            let rows = try reader.first(pageSize + 1, in: connection)
            if rows.count > pageSize {
                next.replace(rows: Array(rows.prefix(pageSize)), boundary: .through(rows[pageSize - 1]))
            } else {
                next.replace(rows: rows, boundary: .end)
            }
        case .refresh(let change):
            if change.isWholeTable || change.rowids.count > max(512, window.count / 4) {
                next.replace(rows: try reader.rows(through: window.boundary, in: connection), boundary: window.boundary)
                touched = change.isWholeTable ? Set(window.rows.map(\.rowid)) : change.rowids
            } else {
                next.apply(touched: change.rowids, matches: try reader.matching(change.rowids, in: connection))
                touched = change.rowids
            }
        case .extend:
            if case .through(let key) = window.boundary {
                let beyond = try reader.rows(after: key, limit: pageSize + 1, in: connection)
                next.extend(with: Array(beyond.prefix(pageSize)),
                            boundary: beyond.count > pageSize ? .through(beyond[pageSize - 1]) : .end)
            }
        case .reach(let target, _):
            // Computed against the window as it is now: a window that holds every cached row
            // (`.end`) but not every server row ends at the page's last record from here on.
            let boundary: CollectionWindow.Boundary = switch target {
            case nil: window.boundary
            case .end?: .end
            case .through(let key)?: window.boundary(reaching: key)
            }
            if boundary != window.boundary {
                let from: RowKey? = if case .through(let key) = window.boundary { key } else { window.rows.last }
                let known = Set(window.rows.map(\.rowid))
                let added = try reader.rows(after: from, through: boundary, in: connection).filter { !known.contains($0.rowid) }
                next.extend(with: added, boundary: boundary)
            }
        }
        var wanted = next.rows.prefix(prefetch).lazy.map(\.rowid).filter { !decodedRowids.contains($0) }
            .reduce(into: Set<Int64>()) { $0.insert($1) }
        wanted.formUnion(touched.intersection(decodedRowids))
        return Outcome(window: next, touched: touched, records: try reader.records(wanted, in: connection))
    }

    private func finish(_ job: CollectionJobs.Job, _ result: Result<Outcome, any Error>) {
        jobs.isRunning = false
        defer {
            if case .firstPage = job { cacheFirst.open()?() }
            runNextJob()
        }
        switch result {
        case .failure(let error):
            update(change: nil) {
                $0.error = error
                if $0.window.count == 0 { $0.dataStatus = .error }
            }
        case .success(let outcome):
            let oldRows = state.window.rows
            let newRows = outcome.window.rows
            var change: CollectionChange?
            var publish = true
            if var held {
                // A server page is being stored: deliver its effects once, when it lands.
                held.touched.formUnion(outcome.touched)
                if case .reach = job {
                    change = WindowDiff.change(from: held.rows, to: publicOrder(newRows), modified: held.touched)
                    self.held = nil
                } else {
                    self.held = held
                    publish = false
                }
            } else if oldRows != newRows || !outcome.touched.isDisjoint(with: newRows.lazy.map(\.rowid)) {
                change = WindowDiff.change(from: publicOrder(oldRows), to: publicOrder(newRows), modified: outcome.touched)
            }
            for rowid in outcome.touched { decoded[rowid] = nil }
            if decoded.count + outcome.records.count > Self.decodedLimit { decoded.removeAll(keepingCapacity: true) }
            decoded.merge(outcome.records) { _, new in new }
            update(change: change, publish: publish) { next in
                next.window = outcome.window
                if case .reach(_, let then) = job {
                    then(&next.server)
                    next.dataStatus = .fresh
                    next.loadingStatus = .loaded
                    next.error = nil
                } else if next.window.count > 0 && (next.dataStatus == .notExist || next.dataStatus == .error) {
                    next.dataStatus = .local
                }
            }
        }
    }

    /// Ends a hold whose server page will not land, delivering what changed meanwhile.
    func releaseHeldChange() {
        guard let held else { return }
        self.held = nil
        let rows = publicOrder(state.window.rows)
        let change = WindowDiff.change(from: held.rows, to: rows, modified: held.touched)
        update(change: change) { _ in }
    }

    /// The most records kept decoded at once; beyond it the cache of decoded rows starts over.
    static var decodedLimit: Int { 8_192 }

    func publicOrder(_ rows: [RowKey]) -> [Int64] {
        anchor == .start ? rows.map(\.rowid) : rows.reversed().map(\.rowid)
    }

    // MARK: Decoding on demand

    /// When a reader moving through the window gets near rows that are not decoded yet (in
    /// either direction), decodes them on the store's queue, so a scrolling list seldom waits.
    ///
    /// A record read this way before a write and delivered after it cannot stay stale: the
    /// store's queue is serial, so the refresh that follows the write lands later and drops it.
    func prefetchAround(_ index: Int) {
        guard !isPrefetching else { return }
        let rows = state.window.rows
        let ahead = min(rows.count, index + Self.prefetchDistance)
        let behind = max(0, index - Self.prefetchDistance)
        let range: Range<Int>
        if ahead > index + 1, decoded[rows[anchorIndex(ahead - 1, count: rows.count)].rowid] == nil {
            range = index..<min(rows.count, index + 4 * Self.prefetchDistance)
        } else if behind < index, decoded[rows[anchorIndex(behind, count: rows.count)].rowid] == nil {
            range = max(0, index - 4 * Self.prefetchDistance)..<index
        } else {
            return
        }
        let wanted = range.map { rows[anchorIndex($0, count: rows.count)].rowid }.filter { decoded[$0] == nil }
        guard !wanted.isEmpty else { return }
        isPrefetching = true
        let reader = self.reader
        store.read({ try reader.records(wanted, in: $0) }, completion: { [weak self] result in
            guard let self else { return }
            isPrefetching = false
            guard case .success(let records) = result else { return }
            if decoded.count + records.count > Self.decodedLimit { decoded.removeAll(keepingCapacity: true) }
            decoded.merge(records) { current, _ in current }
        })
    }

    /// How close to rows not decoded yet a reader gets before they are read ahead.
    static var prefetchDistance: Int { 48 }

    /// Decodes the rows around public `index` that are not decoded yet.
    func decodeNear(_ index: Int) {
        let rows = state.window.rows
        let range = max(0, index - 32)..<min(rows.count, index + 96)
        decode(range.map { rows[anchorIndex($0, count: rows.count)].rowid }.filter { decoded[$0] == nil })
    }

    /// Reads and decodes `rowids` now, waiting for the store's queue.
    func decode(_ rowids: [Int64]) {
        guard !rowids.isEmpty else { return }
        waitingReads += 1
        let reader = self.reader
        guard let records = try? store.readNow({ try reader.records(rowids, in: $0) }) else { return }
        if decoded.count + records.count > Self.decodedLimit, records.count <= Self.decodedLimit {
            decoded.removeAll(keepingCapacity: true)
        }
        decoded.merge(records) { _, new in new }
    }
}
