/// The window reads of a live collection: one job at a time on the store's queue.
extension LiveCollection {
    func schedule(_ job: CollectionJobs.Job) {
        state.loading.jobs.enqueue(job)
        runNextJob()
    }

    private func runNextJob() {
        guard !state.loading.jobs.isRunning else { return }
        guard let job = state.loading.jobs.next() else {
            becameIdle()
            return
        }
        leftIdle()
        state.loading.jobs.isRunning = true
        let window = state.window
        let reader = self.reader
        let pageSize = self.pageSize
        let carried = carriedRows
        let decoded = state.reading.decoded
        let windowDecoded = state.reading.windowDecoded
        state.reading.evictedSinceRead = false
        store.read({ connection in
            try Self.perform(job, on: window, reader: reader, pageSize: pageSize, carrying: carried,
                             decoded: decoded, windowDecoded: windowDecoded, connection: connection)
        }, completion: { [weak self] result in
            self?.finish(job, result)
        })
    }

    /// The rowids of `decoded`, gathered by a loop: `Set(decoded.keys)` runs the standard
    /// library's generic initializer unspecialized here (`Record` is known only at run time),
    /// which cost a refresh of a 20-row window about 40 µs (measured on Linux).
    nonisolated static func rowids(of decoded: [Int64: Record]) -> Set<Int64> {
        var rowids = Set<Int64>(minimumCapacity: decoded.count)
        for rowid in decoded.keys { rowids.insert(rowid) }
        return rowids
    }

    /// The rows the next delivery carries: the whole window up to 1,024 rows; beyond, two pages
    /// (at most 1,024 rows) from the anchor and the rows around the reader.
    var carriedRows: CarriedRows {
        CarriedRows(all: Self.decodedLimit / 8, nearAnchor: min(max(pageSize * 2, 40), Self.decodedLimit / 8),
                    readerIndex: state.reading.readerIndex, fromStart: anchor == .start)
    }

    struct Outcome: Sendable {
        var window: CollectionWindow
        var touched: Set<Int64>
        var records: [Int64: Record]
        /// Whether every decoded record may be stale (a change not tracked row by row): they are
        /// all let go, and `records` holds the carried rows read again.
        var replacesDecoded = false
    }

    /// On the store's queue: the window after `job`, the rows it touched, and the decoded records
    /// the delivery carries: the rows of `carried` not in `decoded` yet, and the touched rows.
    ///
    /// When `windowDecoded` says every row of `window` is decoded and the window after is
    /// carried whole, a refresh that applies a few rows reads only the touched rows it shows: its
    /// cost follows the commit, not the window. (Gathering the decoded rowids and looking up every
    /// row cost a one-message commit about 60 µs on the store's queue, on windows growing from 0
    /// to 1,000 rows: `CrossProcessVersus` under perf, Linux.)
    nonisolated static func perform(
        _ job: CollectionJobs.Job, on window: CollectionWindow, reader: WindowReader<Record>, pageSize: Int,
        carrying carried: CarriedRows, decoded: [Int64: Record], windowDecoded: Bool,
        connection: SQLiteConnection
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
        case .refresh(let rowids, let wholeTable):
            if wholeTable {
                // Any row may have changed, in the window or out of it: read the window again,
                // report its rows as touched, and read every carried row again.
                next.replace(rows: try reader.rows(through: window.boundary, in: connection), boundary: window.boundary)
                touched = Set(window.rows.map(\.rowid))
                let carriedRowids = carried.indexes(count: next.count).map { next.rows[$0].rowid }
                return Outcome(window: next, touched: touched,
                               records: try reader.records(carriedRowids, in: connection), replacesDecoded: true)
            } else if rowids.count > max(512, window.count / 4) {
                next.replace(rows: try reader.rows(through: window.boundary, in: connection), boundary: window.boundary)
                touched = rowids
            } else {
                let shown = next.apply(touched: rowids, matches: try reader.matching(rowids, in: connection))
                touched = rowids
                if windowDecoded, next.count <= carried.all {
                    // The rows kept from `window` are decoded and untouched; the touched rows it
                    // shows now are those `apply` put in. Only they are read (a touched row that
                    // left is let go by the delivery, as any touched row).
                    return Outcome(window: next, touched: touched, records: try reader.records(shown.map(\.rowid), in: connection))
                }
            }
        case .extend:
            if case .through(let key) = window.boundary {
                let beyond = try reader.rows(after: key, limit: pageSize + 1, in: connection)
                next.extend(with: Array(beyond.prefix(pageSize)),
                            boundary: beyond.count > pageSize ? .through(beyond[pageSize - 1]) : .end)
            }
        case .reach(let target, let exactly, _, _):
            // Computed against the window as it is now: a window that holds every cached row
            // (`.end`) but not every server row ends at the page's last record from here on.
            let boundary: CollectionWindow.Boundary = switch target {
            case nil: window.boundary
            case .end?: .end
            case .through(let key)?: exactly ? .through(key) : window.boundary(reaching: key)
            }
            if exactly, boundary != window.boundary {
                // The first server page: cached rows the window showed beyond its last record
                // may have server rows between them and it, which later pages bring.
                next.replace(rows: try reader.rows(through: boundary, in: connection), boundary: boundary)
            } else if boundary != window.boundary {
                let from: RowKey? = if case .through(let key) = window.boundary { key } else { window.rows.last }
                let known = Set(window.rows.map(\.rowid))
                let added = try reader.rows(after: from, through: boundary, in: connection).filter { !known.contains($0.rowid) }
                next.extend(with: added, boundary: boundary)
            }
        }
        let decodedRowids = rowids(of: decoded)
        var wanted = touched.intersection(decodedRowids)
        for index in carried.indexes(count: next.count) {
            let rowid = next.rows[index].rowid
            if !decodedRowids.contains(rowid) || touched.contains(rowid) { wanted.insert(rowid) }
        }
        return Outcome(window: next, touched: touched, records: try reader.records(wanted, in: connection))
    }

    func finish(_ job: CollectionJobs.Job, _ result: Result<Outcome, any Error>) {
        state.loading.jobs.isRunning = false
        defer {
            if case .firstPage = job { state.loading.cacheFirst.open()?() }
            runNextJob()
        }
        switch result {
        case .failure(let error):
            update(change: nil) {
                $0.status.error = error
                if $0.window.count == 0 { $0.status.dataStatus = .error }
            }
        case .success(var outcome):
            outcome.touched = withoutUnchanged(outcome.touched, reread: outcome.records)
            let oldRows = state.window.rows
            let newRows = outcome.window.rows
            var change: CollectionChange?
            var publish = true
            if var held = state.loading.held {
                // A server page is being stored: deliver its effects once, when it lands.
                held.touched.formUnion(outcome.touched)
                if case .reach = job {
                    change = WindowDiff.change(from: held.rows, to: publicOrder(newRows), modified: held.touched)
                    state.loading.held = nil
                } else {
                    state.loading.held = held
                    publish = false
                }
            } else {
                // An empty change (nothing an observer sees moved or changed) delivers nothing.
                change = WindowDiff.change(from: publicOrder(oldRows), to: publicOrder(newRows), modified: outcome.touched)
            }
            // Read before `keep` below, which may itself let records go (of rows it does not carry).
            let windowDecoded = outcome.window.count <= carriedRows.all && !state.reading.evictedSinceRead
            if outcome.replacesDecoded {
                let stale = state.reading.decoded
                state.reading.decoded = [Int64: Record]()
                store.discard(consume stale)
                state.reading.decodedGeneration += 1
            } else {
                forget(outcome.touched)
                state.reading.touchedDuringPrefetch?.formUnion(outcome.touched)
            }
            keep(outcome.records, replacing: true, in: outcome.window)
            state.reading.windowDecoded = windowDecoded
            let resets = state.loading.resets
            update(change: change, publish: publish) { next in
                next.window = outcome.window
                if case .reach(_, _, let pageResets, let then) = job, pageResets == resets {
                    then(&next.server)
                    next.status.dataStatus = .fresh
                    next.status.loadingStatus = .loaded
                    next.status.error = nil
                } else if next.window.count > 0 && (next.status.dataStatus == .notExist || next.status.dataStatus == .error) {
                    next.status.dataStatus = .local
                } else if next.window.count == 0 && next.status.dataStatus == .local && next.status.loadingStatus == .error {
                    // The server could not be reached and nothing local is left: as after the failure.
                    next.status.dataStatus = .error
                }
            }
            // The previous window's keys are freed on a background queue: freeing 100,000 of them
            // would stop the main actor for a millisecond or two.
            store.discard(consume oldRows)
        }
    }

    /// The rows of `touched` but those read again (`reread`) with the very content they had when
    /// decoded before: a row rewritten with identical content, or a change a read had shown
    /// already, is no modification. A row not decoded before cannot be compared and stays.
    private func withoutUnchanged(_ touched: Set<Int64>, reread: [Int64: Record]) -> Set<Int64> {
        touched.filter { rowid in
            guard let before = state.reading.decoded[rowid], let after = reread[rowid] else { return true }
            return before != after
        }
    }

    /// Ends a hold whose server page will not land, delivering what changed meanwhile.
    func releaseHeldChange() {
        guard let held = state.loading.held else { return }
        state.loading.held = nil
        let rows = publicOrder(state.window.rows)
        let change = WindowDiff.change(from: held.rows, to: rows, modified: held.touched)
        update(change: change) { _ in }
    }

    /// Rows in display order (the window keeps them in anchor order), without copying them.
    func publicOrder(_ rows: [RowKey]) -> DisplayRows {
        DisplayRows(rows, reversed: anchor == .end)
    }
}
