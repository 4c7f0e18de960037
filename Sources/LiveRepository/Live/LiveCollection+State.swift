extension LiveCollection {
    /// Everything a live collection keeps track of, in one value: what its observers see
    /// (``status``, ``window``, ``server``), the loading under way (``loading``) and the records
    /// it holds decoded (``reading``). Only the first part is observed: changes to it go through
    /// `update(change:publish:_:)`, which publishes them; the other two are the collection's
    /// own bookkeeping and change without a delivery. Read and set the statuses as `status.…`:
    /// no dynamic members, whose key paths the runtime would apply at each use (several at every
    /// delivery, measured by `CrossProcessVersus` under perf).
    struct State {
        var status = LiveStatus()
        var window: CollectionWindow
        var server = CollectionJobs.ServerProgress()
        var loading = Loading()
        var reading = Reading()

        init(window: CollectionWindow) {
            self.window = window
        }
    }

    /// The loading under way: the window reads waiting on the store's queue and the server pages
    /// asked for.
    struct Loading {
        /// The window reads, one at a time on the store's queue.
        var jobs = CollectionJobs()
        /// Counts the server requests; an answer to an older one than the last is dropped.
        var fetchGeneration = 0
        /// Counts `resetPage()` calls: a server page's `reach` that lands after one (a recovery
        /// rebuilt the cache meanwhile, say) no longer speaks for the collection's server pages.
        var resets = 0
        /// Server pages asked for by `nextPage()`/`previousPage()` while another was loading.
        var wantedServerPages = 0
        /// While a server page is being stored: the rows observers saw last, and the rows touched
        /// since. The page's own writes then reach observers as one delivery, with the fresh
        /// status.
        var held: (rows: DisplayRows, touched: Set<Int64>)?
        /// Holds back a server answer until the first cache read has landed.
        var cacheFirst = CacheFirstGate()
    }

    /// The records the collection holds decoded, and where its reader is.
    struct Reading {
        /// Decoded records by rowid: the rows deliveries carried and those read lately. A record
        /// counts for a row only if their ids agree (see `decodedRecord(of:)`).
        var decoded: [Int64: Record] = [:]
        /// While rows ahead of the reader are read beside the writes: the rowids deliveries
        /// touched since the read began, whose records it must not keep.
        var touchedDuringPrefetch: Set<Int64>?
        /// Counts the times every decoded record was let go as possibly stale (a change not
        /// tracked row by row); a read ahead that began before the last one keeps nothing.
        var decodedGeneration = 0
        /// Whether every row of the window is decoded: set by each delivery, true when its
        /// window has at most ``CarriedRows/all`` rows and no record was let go for room while
        /// its read ran. A refresh of a few rows then reads only the touched rows it shows,
        /// instead of looking up every row of the window (see `perform`).
        /// It stays true until the next delivery: records are let go for room only outside the
        /// rows a delivery carries, which for such a window are all of its rows.
        var windowDecoded = false
        /// Whether records were let go for room since the last read of a delivery started: the
        /// records that read counted on may be gone, and its window is not known to be decoded.
        var evictedSinceRead = false
        /// The public index `object(at:)` read last: deliveries decode the rows around it.
        var readerIndex: Int?
        /// How many times `object(at:)` or `allObjects()` read the cache on demand (tests).
        var waitingReads = 0
    }
}
