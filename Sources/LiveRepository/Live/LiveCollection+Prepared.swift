import Foundation

/// A live collection's reads prepared on the store's queue: when the store finds other
/// processes' commits, it reads the touched rows for each idle collection in the transaction that
/// found them, and the change and the read reach the main actor in one hop (see
/// ``ChangePreparers``). A collection that was not idle, or that started a job since, reads as
/// for any other change.
extension LiveCollection {
    /// The collection's ``RefreshPreparer``, made when its store watches its file for other
    /// processes' commits (nil otherwise: its changes are the store's own).
    static func makePreparer(for collection: LiveCollection, store: LiveStore) -> RefreshPreparer<Record>? {
        guard store.isWatching else { return nil }
        let preparer = RefreshPreparer(listener: ObjectIdentifier(collection), reader: collection.reader,
                                       pageSize: collection.pageSize)
        store.preparers.add(preparer, table: Record.table.name)
        return preparer
    }

    /// After the last job ended: the state a refresh would start from, for the store's queue.
    func becameIdle() {
        guard let preparer else { return }
        // The decoded records themselves, not a set of their rowids: sharing them costs nothing
        // here, and the store's queue looks up only what its read needs. The collection's next
        // change to them comes after the queue let them go (in the delivery the read leads to),
        // or, while idle, makes a copy (a read ahead or on demand).
        let previous = preparer.update(RefreshPreparer.Idle(
            window: state.window, carried: carriedRows, decoded: state.reading.decoded,
            windowDecoded: state.reading.windowDecoded, started: state.loading.jobs.started))
        state.reading.evictedSinceRead = false
        if let previous { store.discard(previous) }
    }

    /// When a job starts: the state a refresh would start from is no longer the collection's.
    func leftIdle() {
        if let previous = preparer?.update(nil) { store.discard(previous) }
    }

    /// A change with the read the store prepared for it: applied at once when it was read from
    /// the window the collection still has, with no job since; otherwise the change is read as
    /// any other.
    func cacheDidChange(_ change: TableChange, prepared: (any Sendable)?) {
        guard let prepared = prepared as? PreparedRefresh<Record>, let preparer, prepared.preparer === preparer,
              !change.isRebuilt, state.loading.jobs.isIdle, state.loading.jobs.started == prepared.started
        else {
            cacheDidChange(change)
            return
        }
        leftIdle()
        state.loading.jobs.startPrepared()
        finish(.refresh(rowids: change.rowids, wholeTable: change.isWholeTable), .success(prepared.outcome))
    }
}

/// What reads a live collection's refresh on the store's queue, from the state the collection
/// had when it was last idle (see ``ChangePreparer``).
///
/// `@unchecked Sendable`: `lock` guards `idle`; the rest is immutable.
final class RefreshPreparer<Record: CacheRecord>: ChangePreparer, @unchecked Sendable {
    /// What a refresh job started while the collection was idle would start from.
    struct Idle: Sendable {
        let window: CollectionWindow
        let carried: CarriedRows
        let decoded: [Int64: Record]
        /// Whether every row of `window` is decoded.
        let windowDecoded: Bool
        /// The collection's count of jobs started then.
        let started: Int
    }

    let listener: ObjectIdentifier
    private let reader: WindowReader<Record>
    private let pageSize: Int
    private let lock = NSLock()
    private var idle: Idle?

    init(listener: ObjectIdentifier, reader: WindowReader<Record>, pageSize: Int) {
        self.listener = listener
        self.reader = reader
        self.pageSize = pageSize
    }

    /// On the main actor: sets the collection's idle state, or nil when a job starts, and
    /// returns the previous one (for the caller to let go off the main actor: it may hold the
    /// last reference to a window or to decoded records).
    func update(_ idle: Idle?) -> Idle? {
        lock.withLock {
            defer { self.idle = idle }
            return self.idle
        }
    }

    /// On the store's queue: the refresh of `change` read from the idle state, which it takes
    /// (one preparation per idle state: the next waits for the collection to apply this one and
    /// be idle again). Nil when the collection is not idle, the cache was rebuilt, or the read
    /// failed (the collection then reads as for any change, and meets the failure itself).
    func prepare(_ change: TableChange, connection: SQLiteConnection) -> (any Sendable)? {
        guard !change.isRebuilt else { return nil }
        let taken = lock.withLock {
            defer { idle = nil }
            return idle
        }
        guard let taken else { return nil }
        let job = CollectionJobs.Job.refresh(rowids: change.rowids, wholeTable: change.isWholeTable)
        guard let outcome = try? LiveCollection<Record>.perform(
            job, on: taken.window, reader: reader, pageSize: pageSize, carrying: taken.carried,
            decoded: taken.decoded, windowDecoded: taken.windowDecoded, connection: connection)
        else { return nil }
        return PreparedRefresh(preparer: self, started: taken.started, outcome: outcome)
    }
}

/// A refresh a ``RefreshPreparer`` read, on its way to its collection with the change.
struct PreparedRefresh<Record: CacheRecord>: Sendable {
    let preparer: RefreshPreparer<Record>
    /// The collection's count of jobs started when it was read: it fits only if still the same.
    let started: Int
    let outcome: LiveCollection<Record>.Outcome
}
