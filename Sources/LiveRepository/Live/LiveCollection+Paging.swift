/// Paging and server pages of a live collection.
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
        state.loading.fetchGeneration += 1
        state.loading.resets += 1
        state.loading.wantedServerPages = 0
        update(change: nil, publish: false) { $0.server = CollectionJobs.ServerProgress() }
        schedule(.firstPage)
        loadServerPage(cursor: nil)
    }

    private func grow() {
        guard canGrowNow else { return }
        schedule(.extend)
        guard fetchPage != nil, !state.server.exhausted else { return }
        if state.status.loadingStatus == .loading {
            state.loading.wantedServerPages += 1
        } else {
            loadServerPage(cursor: state.server.cursor)
        }
    }

    private var canGrowNow: Bool { anchor == .start ? hasNext : hasPrevious }

    // MARK: Server pages

    /// Asks the server for the page at `cursor` (nil: the first page).
    func loadServerPage(cursor: String?) {
        guard let fetchPage else { return }
        state.loading.fetchGeneration += 1
        let generation = state.loading.fetchGeneration
        let limit = pageSize
        update(change: nil) { $0.status.loadingStatus = .loading }
        // What the store commits from now on, in its own order: the page's write asks it, since
        // a commit can come before this collection hears of it.
        let mark = store.markWrites()
        Task { [weak self] in
            let result: Result<RemotePage<Record>, any Error>
            do { result = .success(try await fetchPage(cursor, limit)) } catch { result = .failure(error) }
            self?.serverAnswered(result, generation: generation, since: mark)
        }
    }

    private func serverAnswered(_ result: Result<RemotePage<Record>, any Error>, generation: Int, since mark: WriteMark) {
        guard generation == state.loading.fetchGeneration else { return }
        guard state.loading.cacheFirst.isOpen else {
            return state.loading.cacheFirst.hold { [weak self] in self?.serverAnswered(result, generation: generation, since: mark) }
        }
        switch result {
        case .failure(let error):
            state.loading.wantedServerPages = 0
            update(change: nil) {
                $0.status.loadingStatus = .error
                $0.status.error = error
                if $0.window.count == 0 { $0.status.dataStatus = .error }
            }
        case .success(let page):
            let reader = self.reader
            let start = state.server.lastKey
            let lastKey = page.records.last.map(reader.key(of:))
            let end: CollectionWindow.Boundary = page.nextCursor == nil ? .end : lastKey.map { .through($0) } ?? .end
            let records = page.records
            // An empty page that is not the last covers no known range: nothing is stale.
            let provesRange = !records.isEmpty || page.nextCursor == nil
            if state.loading.held == nil { state.loading.held = (publicOrder(state.window.rows), []) }
            store.enqueueWrite({ transaction in
                // The rows written since `mark` stay as they are, heard of here yet or not.
                try reader.storeServerPage(records, after: start, through: end, provesRange: provesRange, since: mark, in: transaction)
            }, completion: { [weak self] error in
                self?.serverPageStored(page, lastKey: lastKey, error: error, generation: generation)
            })
        }
    }

    private func serverPageStored(_ page: RemotePage<Record>, lastKey: RowKey?, error: (any Error)?, generation: Int) {
        guard generation == state.loading.fetchGeneration else { return releaseHeldChange() }
        if let error {
            releaseHeldChange()
            update(change: nil) { $0.status.loadingStatus = .error; $0.status.error = error }
            return
        }
        // The last page reaches the end; another reaches its last record (an empty one, nothing).
        let target: CollectionWindow.Boundary? = page.nextCursor == nil ? .end : lastKey.map { .through($0) }
        schedule(.reach(target, exactly: state.server.lastKey == nil, resets: state.loading.resets) { server in
            server.cursor = page.nextCursor
            server.exhausted = page.nextCursor == nil
            server.pagesLoaded += 1
            if let lastKey { server.lastKey = lastKey }
        })
        if state.loading.wantedServerPages > 0, page.nextCursor != nil {
            state.loading.wantedServerPages -= 1
            loadServerPage(cursor: page.nextCursor)
        }
    }
}
