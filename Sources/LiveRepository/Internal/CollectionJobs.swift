/// The window reads a live collection has queued: run one at a time, in order, so each starts
/// from the window the previous one left.
struct CollectionJobs {
    enum Job {
        /// Read the first page from the anchor (at start, and on `resetPage()`).
        case firstPage
        /// Re-read the rows commits touched (by rowid), or every row (`wholeTable`).
        case refresh(rowids: Set<Int64>, wholeTable: Bool)
        /// Add a page of cached rows beyond the boundary.
        case extend
        /// After a server page: move the boundary to the end (the last page) or to at least the
        /// page's last record (nil: an empty page, keep it), then apply `then`. `exactly`: the
        /// boundary becomes the page's last record even where the window reached further (after
        /// the first server page, the cached rows beyond it are not known to follow it).
        /// `resets`: the collection's count of `resetPage()` calls when the page was stored; after
        /// another reset the job moves the window only, since its page no longer counts.
        case reach(
            CollectionWindow.Boundary?, exactly: Bool, resets: Int, then: @MainActor (inout ServerProgress) -> Void)
    }

    /// What the collection knows of its server pages, changed when a `reach` job lands.
    struct ServerProgress {
        var cursor: String?
        var exhausted = false
        var pagesLoaded = 0
        /// The key of the last record of the last server page: where the next page's range starts.
        var lastKey: RowKey?
    }

    private(set) var pending: [Job] = []
    var isRunning = false
    /// Counts the jobs started: a read prepared for the collection while it was idle (see
    /// `RefreshPreparer`) still fits it only if no job started since.
    private(set) var started = 0

    /// Whether no job runs or waits: the window is the one the last job left.
    var isIdle: Bool { !isRunning && pending.isEmpty }

    /// Queues `job`; a refresh joins a refresh already waiting, since each reads the current cache.
    mutating func enqueue(_ job: Job) {
        if case .refresh(let rowids, let wholeTable) = job,
           let index = pending.firstIndex(where: { if case .refresh = $0 { true } else { false } }),
           case .refresh(var waiting, let waitingWholeTable) = pending[index] {
            // Take the waiting set out of the queue first, so that it grows in place instead of
            // being copied: a burst's refreshes carry thousands of rowids each.
            pending[index] = .extend
            waiting.formUnion(rowids)
            pending[index] = .refresh(rowids: waiting, wholeTable: wholeTable || waitingWholeTable)
            return
        }
        pending.append(job)
    }

    /// Counts a read prepared on the store's queue as a job that started (and runs until the
    /// collection applied it), so that another prepared from the same idle state no longer fits.
    mutating func startPrepared() {
        started += 1
        preparedCount += 1
        isRunning = true
    }

    /// How many refreshes were prepared on the store's queue and applied (tests).
    private(set) var preparedCount = 0

    mutating func next() -> Job? {
        guard !pending.isEmpty else { return nil }
        started += 1
        return pending.removeFirst()
    }
}
