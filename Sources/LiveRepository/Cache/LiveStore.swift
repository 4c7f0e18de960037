import CSQLite
import Dispatch
import Foundation
import LiveData

/// The local cache: a SQLite database that live objects and collections read and watch.
///
/// Writes and the reads behind deliveries run on the store's own serial queue, never on the main
/// thread. Writes are batched: writes queued while one transaction runs are committed together
/// in the next (up to 16,384 at a time), and one failing write does not undo the others. After
/// each commit, the live objects and collections that show a touched row are told, on the main
/// actor; nothing is told about a rolled-back change.
///
/// The cache also has a second connection that only reads: a live collection reads the rows it
/// has not decoded yet through it, so the main actor never waits for the store's queue. A file is
/// in WAL mode, where a reader sees the last commit while a writer writes. An in-memory cache
/// (for tests and previews) is one database in memory that both connections open by a name of
/// its own; it has no WAL, so such a read that comes during a write transaction waits for its
/// commit, and sees it.
///
/// Several stores may open one file, in one process or in several (an app and its extensions
/// in an App Group): each notices the others' commits, through a change log kept in the file,
/// and tells its observers exactly as for its own writes, after the commit and never for a
/// rolled-back write. By default it is woken by each commit (``externalChanges``), takes in what
/// others committed before each of its own writes, and looks at once on
/// ``checkForExternalChanges()``. See <doc:SharingACacheFile>.
///
/// ```swift
/// let store = try LiveStore(location: .file(cacheURL), migrations: MyApp.migrations)
/// try await store.write { try $0.upsert(note) }
/// ```
///
/// A damaged cache file never stops the app: see ``recovery``.
public final class LiveStore: @unchecked Sendable {
    // `@unchecked Sendable`: `connection`, `migrator`, `changeLog` and `inBurst` are used only
    // on `queue`; `lock` guards `pending`, `drainScheduled`, `marks` and `lastRecovery`; `hub` is
    // isolated to the main actor; `reader` and `memoryName` are immutable, and the reader confines
    // its connection to its own queue; `subscription` is set once in `init` and only read after; `lock` also guards
    // `checkScheduled`.

    /// Where the cache lives.
    public let location: SQLiteConnection.Location
    /// Set when opening found the cache file damaged and replaced it; nil otherwise.
    public let recovery: CacheRecovery?

    let queue = DispatchQueue(label: "LiveRepository.LiveStore", qos: .userInitiated)
    let hub = ChangeHub()
    /// What reads, on `queue`, what other processes' commits mean for the live collections
    /// before the change goes to the main actor (see ``ChangePreparers``).
    let preparers = ChangePreparers()
    /// The writing connection; used only on `queue`.
    var connection: SQLiteConnection
    /// The reading connection.
    let reader: StoreReader
    /// The name by which the writer and the reader share an in-memory cache's database, unique to
    /// the store (unused for a file).
    let memoryName: String
    let migrator: SQLiteMigrator
    let lock = NSLock()
    private var pending: [PendingWrite] = []
    private var drainScheduled = false
    /// The marks that record what later writes change (see ``markWrites()``), held weakly: a
    /// mark its owner let go of is forgotten; guarded by `lock`.
    private var marks: [WeakMark] = []
    var lastRecovery: CacheRecovery?
    /// Whether a burst of writes has the big page cache; used only on `queue`.
    private var inBurst = false
    /// The file's change log, how other connections' commits are found; nil in memory.
    let changeLog: StoreChangeLog?
    /// How often the store looks for other connections' commits.
    public let externalChanges: ExternalChangeDetection
    /// The store's place in the process's watcher of shared files; nil in memory or with
    /// ``ExternalChangeDetection/off``.
    private(set) var subscription: ExternalChangeMonitor.Subscription?
    /// Whether a look for other connections' commits is queued; guarded by `lock`.
    var checkScheduled = false

    /// The most queued writes committed in one transaction.
    static let maximumBatch = 16_384
    /// The batch size from which a transaction counts as a burst.
    static let burstSize = 1_024
    /// SQLite's page cache, in KiB: its default, and during a burst.
    static let defaultCacheKiB = 2_000
    static let burstCacheKiB = 32_768

    private struct WeakMark {
        weak var mark: WriteMark?
    }

    private struct PendingWrite {
        /// Writes, and returns the write's note for the commit observers (see `enqueueWrite(noting:completion:)`).
        let body: @Sendable (CacheTransaction) throws -> (any Sendable)?
        let completion: @MainActor @Sendable ((any Error)?) -> Void
    }

    /// Opens the cache at `location`, creating it and running `migrations` as needed.
    ///
    /// It opens on the caller's thread and can take a while (migrations, a file another process
    /// is writing, a recovery); on the main actor, use ``open(location:migrations:externalChanges:)``.
    ///
    /// A file that is corrupt, is not a database, is in a file format this SQLite cannot read,
    /// has a newer schema, or has a schema its migrations fail on (a table of a migration it is
    /// said not to have run "already exists") is moved aside and replaced by a new one;
    /// ``recovery`` says so.
    ///
    /// A file cache also holds the store's change log (the table `live_store_changes`, made
    /// outside your migrations), through which stores on the same file in other connections and
    /// processes learn what each commit changed. `externalChanges` says how often this store
    /// looks for their commits; see <doc:SharingACacheFile>. A cache in memory ignores it.
    ///
    /// A file that is healthy but cannot be written (a read-only file, or a read-only folder
    /// where its `-wal` and `-shm` files already are) opens for reading: reads work, and writes
    /// throw ``SQLiteError`` with `SQLITE_READONLY`, naming the file. It is never moved aside.
    ///
    /// - Throws: ``SQLiteError`` or ``SQLiteMigrator/Failure`` when even a new cache cannot be
    ///   made (a folder that cannot be written, a full disk, a migration with a bug); the error
    ///   names the file and SQLite's cause, and a damaged file is left in place.
    ///   ``CacheRecoveryFailure`` when the file is damaged and cannot be moved aside.
    public init(
        location: SQLiteConnection.Location, migrations: [SQLiteMigration],
        externalChanges: ExternalChangeDetection = .default
    ) throws {
        self.location = location
        self.migrator = SQLiteMigrator(migrations)
        self.externalChanges = externalChanges
        let memoryName = "livedata-\(UUID().uuidString)"
        self.memoryName = memoryName
        do {
            (connection, changeLog) = try Self.openWithLog(location, memoryName: memoryName, migrator: migrator)
            recovery = nil
        } catch {
            guard case .file(let url) = location, Self.isRecoverable(error) || Self.isDamageAtOpen(error) else { throw error }
            let movedTo: URL
            do {
                movedTo = try Self.moveAside(url)
            } catch let cause {
                throw CacheRecoveryFailure(file: url, damage: error, cause: cause)
            }
            do {
                (connection, changeLog) = try Self.openWithLog(location, memoryName: memoryName, migrator: migrator)
            } catch {
                // No new cache could be made (a full disk): the damaged file goes back in place.
                Self.putBack(movedTo, at: url)
                throw error
            }
            recovery = CacheRecovery(error: error, movedTo: movedTo)
        }
        lastRecovery = recovery
        switch location {
        case .file(let url): reader = StoreReader(.file(url))
        case .inMemory: reader = StoreReader(.memory(name: memoryName))
        }
        subscription = startWatching()
    }

    deinit { subscription.map { ExternalChangeMonitor.shared.unsubscribe($0, waiting: false) } }

    /// Whether the store watches its file for other connections' commits.
    var isWatching: Bool { subscription != nil }

    /// The most recent recovery, including one made while running (see ``recovery`` for opening).
    public var latestRecovery: CacheRecovery? {
        lock.withLock { lastRecovery }
    }

    // MARK: Writing

    /// Runs `body` in a write transaction on the store's queue and returns its result.
    ///
    /// Observers hear about the changes after the commit and before this method returns.
    /// - Throws: what `body` throws (its changes are rolled back), or ``SQLiteError``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (CacheTransaction) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            // Written inside the write on the store's queue, read in its completion.
            let result = LockedState<T?>(nil)
            enqueueWrite({ transaction in
                let value = try body(transaction)
                result.withLock { $0 = value }
            }) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: result.withLock { $0! }) }
            }
        }
    }

    /// Queues `body` for the next write transaction; `completion` runs on the main actor after
    /// the commit (and after observers were told) with nil, or with the error that rolled it back.
    public func enqueueWrite(
        _ body: @escaping @Sendable (CacheTransaction) throws -> Void,
        completion: @escaping @MainActor @Sendable ((any Error)?) -> Void = { _ in }
    ) {
        enqueueWrite(noting: { try body($0); return nil }, completion: completion)
    }

    /// ``enqueueWrite(_:completion:)`` for a write that says what it wrote: the note `body`
    /// returns reaches the observers of every commit (`addCommitObserver(_:)`) if the write commits.
    package func enqueueWrite(
        noting body: @escaping @Sendable (CacheTransaction) throws -> (any Sendable)?,
        completion: @escaping @MainActor @Sendable ((any Error)?) -> Void = { _ in }
    ) {
        let schedule = lock.withLock {
            pending.append(PendingWrite(body: body, completion: completion))
            defer { drainScheduled = true }
            return !drainScheduled
        }
        if schedule { queue.async { self.drain() } }
    }

    /// A mark after every write queued so far: the transactions that take later writes record
    /// their changes into it as they commit, until ``WriteMark/end()``. Take one before asking
    /// the server for a page, and store the page with
    /// ``CacheTransaction/storeServerPage(_:of:after:through:provesRange:since:storing:)``.
    package func markWrites() -> WriteMark {
        let mark = WriteMark(store: self)
        lock.withLock {
            marks.removeAll { $0.mark == nil }
            marks.append(WeakMark(mark: mark))
        }
        return mark
    }

    /// On `queue`: records what other connections committed, found now, into every mark (they
    /// may have committed after it).
    func recordForMarks(_ change: StoreChange) {
        let watching = lock.withLock { marks.compactMap(\.mark) }
        for mark in watching { mark.record(change) }
    }

    /// Forgets `mark`: no commit records into it any more.
    func forget(_ mark: WriteMark) {
        lock.withLock { marks.removeAll { $0.mark == nil || $0.mark === mark } }
    }

    /// On `queue`: commits every queued write in one transaction, then tells the main actor.
    private func drain() {
        // At most `maximumBatch` writes a transaction: a transaction larger than SQLite's page
        // cache spills pages to disk before it commits, and observers wait for its end.
        // The marks made before the batch was taken may precede some of its writes: each records
        // the batch's change once it commits.
        let (batch, watching) = lock.withLock {
            let taken = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(taken.count)
            if pending.isEmpty { drainScheduled = false } else { queue.async { self.drain() } }
            return (taken, marks.compactMap(\.mark))
        }
        guard !batch.isEmpty else { return }
        // A burst (real-time events after a reconnect, say) gets a page cache big enough for its
        // transaction, so that SQLite does not spill pages to disk before the commit; the memory
        // is given back when the burst is over.
        if batch.count >= Self.burstSize, !inBurst {
            inBurst = true
            try? connection.execute("PRAGMA cache_size = -\(Self.burstCacheKiB)")
        }
        defer {
            // The burst ends when no writes are waiting.
            if inBurst, lock.withLock({ pending.isEmpty }) {
                inBurst = false
                try? connection.execute("PRAGMA cache_size = -\(Self.defaultCacheKiB)")
                connection.releaseMemory()
            }
        }
        // First optimistically, every write straight in one transaction; if one throws, the
        // whole batch is rolled back and run again with each write in a savepoint, so only the
        // failing one is undone. Writes rarely fail, and savepoints cost two statements each.
        // Each transaction first takes in what other connections committed before it (it holds
        // the write lock, so nothing else commits meanwhile) and ends by logging its own change.
        var transaction = CacheTransaction(connection: connection)
        var outcomes: [(any Error)?] = Array(repeating: nil, count: batch.count)
        var failure: (any Error)?
        var external: StoreChange = [:]
        var noted: [(index: Int, note: any Sendable)] = []
        do {
            try connection.transaction {
                try collectExternalChanges(into: &external)
                for (index, write) in batch.enumerated() {
                    try transaction.run({ if let note = try write.body($0) { noted.append((index, note)) } }, isolated: false)
                }
                try changeLog?.append(transaction.change, connection: connection)
            }
        } catch {
            failure = error
        }
        if failure != nil, batch.count > 1, connection.isInAutocommitMode {
            failure = nil
            transaction = CacheTransaction(connection: connection)
            noted = []
            do {
                try connection.transaction {
                    try collectExternalChanges(into: &external)
                    for (index, write) in batch.enumerated() {
                        do { try transaction.run({ if let note = try write.body($0) { noted.append((index, note)) } }) }
                        catch { outcomes[index] = error }
                    }
                    try changeLog?.append(transaction.change, connection: connection)
                }
            } catch {
                failure = error
            }
        }
        if failure == nil { changeLog?.didCommit() }
        // Other processes are woken first, before this commit's own delivery is made ready.
        if failure == nil, !transaction.change.isEmpty { announceCommit() }
        var change = external.merging(failure == nil ? transaction.change : [:]) { $0.union($1) }
        if let failure, let rebuilt = recoverIfDamaged(failure) { (change, external) = (rebuilt, rebuilt) }
        if !change.isEmpty { for mark in watching { mark.record(change) } }
        let notes = failure == nil ? noted.compactMap { outcomes[$0.index] == nil ? $0.note : nil } : []
        let results = outcomes.map { $0 ?? failure }
        let completions = batch.map(\.completion)
        let hub = self.hub
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                if !change.isEmpty || !notes.isEmpty { hub.publish(change, external: external, notes: notes) }
                for (completion, error) in zip(completions, results) { completion(error) }
            }
        }
    }

    // MARK: Reading

    /// Runs `body` with the connection on the store's queue and returns its result.
    ///
    /// Use it for reads; changes made through the raw connection are not announced to observers.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.readOnQueue(body) })
            }
        }
    }

    /// Runs `body` on the queue, then `completion` on the main actor with its result.
    ///
    /// The live objects and collections read through it. `body` sees no commit that observers
    /// have not been told about before `completion` runs: it reads in one read transaction that
    /// first takes in what other connections committed (see ``readAnnounced(_:on:)``).
    package func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T,
        completion: @escaping @MainActor @Sendable (Result<T, any Error>) -> Void
    ) {
        queue.async {
            let result = Result { try self.readOnQueue { try self.readAnnounced(body, on: $0) } }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Runs `body` on the caller's thread on the reader, for small reads the main actor cannot
    /// defer (a collection row that is not decoded yet). It never waits for the store's queue;
    /// in memory, a write transaction under way makes it wait for the commit (see ``LiveStore``).
    ///
    /// A damaged file is confirmed and recovered on the queue, as for the store's own reads.
    func readNow<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try reader.read(body)
        } catch {
            confirmDamage(error, running: body)
            throw error
        }
    }

    /// Runs `body` beside the writes, on the reader, then `completion` on the main actor with its
    /// result.
    func readBeside<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T,
        completion: @escaping @MainActor @Sendable (Result<T, any Error>) -> Void
    ) {
        reader.read(body) { [self] result in
            if case .failure(let error) = result { confirmDamage(error, running: body) }
            completion(result)
        }
    }

    /// After the reader failed with `error`: if it says the file is damaged, runs `body` again
    /// on the queue, where a failure recovers the file (a read of the writer's own connection
    /// decides, so that two reports of one damage never rebuild the file twice).
    private func confirmDamage<T>(_ error: any Error, running body: @escaping @Sendable (SQLiteConnection) throws -> T) {
        guard Self.isRecoverable(error) else { return }
        queue.async { _ = try? self.readOnQueue(body) }
    }

    private func readOnQueue<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try body(connection)
        } catch {
            if let rebuilt = recoverIfDamaged(error) { publishOnMain(rebuilt) }
            throw error
        }
    }

    /// Tells the observers of the rows `change` touched, on the main actor, after what is already
    /// queued there.
    func publishOnMain(_ change: StoreChange) {
        let hub = self.hub
        DispatchQueue.main.async { MainActor.assumeIsolated { hub.publish(change) } }
    }

    /// Lets go of `value` on a background queue, so that freeing it (a window of 100,000 row
    /// keys, thousands of decoded records) stops neither the caller nor the store's writes. Pass
    /// the last reference.
    func discard<T: Sendable>(_ value: consuming T) {
        // Moved into a box that only the block then holds: the block's release is the last.
        let box = Unmanaged.passRetained(DiscardedValue(consume value))
        DispatchQueue.global(qos: .utility).async { box.release() }
    }

    /// Closes the cache. Later reads and writes fail with ``SQLiteError/closed``; live objects
    /// and collections report that error and keep what they show.
    ///
    /// When no other connection has the file open, closing moves every commit from the WAL into
    /// the file and deletes the `-wal` file.
    public func close() async {
        if let subscription {
            // Before the queue: the channel's reading thread may be running this store's look on
            // it (see `checkHere`), and the unsubscription waits for that thread to end. On a
            // thread of its own, as that wait may last as long as a write under way.
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    ExternalChangeMonitor.shared.unsubscribe(subscription)
                    continuation.resume()
                }
            }
        }
        await withCheckedContinuation { continuation in
            queue.async {
                // The reader first: the writer, closing last, checkpoints and deletes the WAL (a
                // reader cannot), so the file alone holds every commit, even for someone who
                // copies it or deletes its -wal once the app is done.
                self.reader.close()
                self.connection.close()
                continuation.resume()
            }
        }
    }
}

/// A value on its way to be freed on a background queue; see ``LiveStore/discard(_:)``.
private final class DiscardedValue<T: Sendable>: Sendable {
    let value: T
    init(_ value: consuming T) { self.value = value }
}


