import LiveRepository
import LiveSocial
import LiveSocialServer
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// LiveSocialServer's ``ServerStore`` on a PostgreSQL database that several server instances share.
///
/// Give it to `EmbeddedServer(store:)`: the domain rules then run on the store's
/// ``ThreadExecutor``, a thread of its own, where the store sends each statement on its one
/// connection and blocks for the answer (`EventLoopFuture.wait()`); no thread of the cooperative
/// pool or of an event loop ever waits for the database.
///
/// - Change log: each write transaction begins by locking the counter row of the change log
///   (`SELECT … FOR UPDATE`), so writers of every instance take turns, as SQLite's write lock
///   makes them, and sequence numbers are gapless in commit order: number `n + 1` is taken only
///   after the transaction of `n` has committed (or rolled back, giving `n` back).
/// - Round trips: holding the lock, a write transaction reads the counters and the clock once
///   (see ``LockedWrite``) and takes sequence numbers, ids and timestamps from them; its
///   writes, whose answers nobody waits for, go with its next read or its `COMMIT`, in one trip
///   (postgres-nio sends queued statements in order without this thread waiting between them).
///   A read transaction's `COMMIT` goes unwaited, with the next trip waiting for it.
/// - Reads ahead (see ``ReadAhead``): a write transaction reads back the records it wrote without
///   a trip, and the reads named by `prepareToRead(records:membershipsOf:)` (an instance's
///   catch-up of other instances' changes: their records, channels and memberships) go in one
///   trip. A keyed message send is 8 trips (was 22 statements, each a trip of its own); the
///   catch-up of another instance's send is 2 (was 5).
/// - Notifications: a transaction that logged changes sends `pg_notify` on
///   ``notificationChannel`` before its `COMMIT`, so the notice goes out if and only if it commits.
///   ``PostgresChangeListener`` hears them for an instance.
/// - Records keep SQLite's types and ordering: see ``PostgresValues`` and ``PostgresDialect``.
/// - A lost connection is opened again at the next transaction; the transaction it broke fails
///   with ``PostgresStoreError/connectionLost(_:)`` (see
///   ``PostgresStoreError/isConnectionLoss(_:sqlState:)``) and, like any failed write, stores
///   nothing, or its outcome is unknown when the loss hit its `COMMIT`.
public final class PostgresServerStore: ServerStore, @unchecked Sendable {
    // @unchecked Sendable: every member below is used on `thread`'s one thread only (the
    // server's isolation runs there, and `open` creates the store there; checked by
    // `onThread()`), but `ownSequence`, a Mutex.
    /// The thread the store, and the server's isolation, run on.
    public let thread: ThreadExecutor
    /// The channel `pg_notify` announces committed changes on, with the last sequence number as payload.
    public static let notificationChannel = "livedata_changes"

    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    var connection: PostgresConnection?
    private var connectionCount = 0
    var depth = 0
    var loggedChanges = false
    /// Statements whose answers nobody waits for, sent before the next statement that is run.
    var deferred: [PostgresQuery] = []
    /// Statements sent that nobody waited for (a read's `COMMIT`): the next trip waits for them too.
    var unconfirmed: [EventLoopFuture<PostgresQueryResult>] = []
    /// Change-log entries to insert, as their columns' values, sent (as one statement) with the deferred statements.
    var deferredEntries: [SQLiteValue] = []
    /// Each statement's SQL with numbered placeholders, by its SQL with `?`.
    private var numberedStatements: [String: String] = [:]
    /// The open write transaction's counters and clock, read once it took the change log's lock.
    var locked: LockedWrite?
    /// In a transaction, the answers of its prepared reads and the records it wrote.
    var readAhead: ReadAhead?
    /// Called on the store's thread with the connection a trip is about to use, once the store
    /// has found it open and before the trip's statements are handed to it; for tests (a
    /// connection that closes at that moment).
    var beforeHandOver: ((PostgresConnection) -> Void)?
    /// How many trips to the database the store has made: each time its thread waited for
    /// answers. Read it on the store's thread, to measure (one trip is at least a network round trip).
    public internal(set) var trips = 0
    /// See ``lastOwnSequence``.
    let ownSequence = Mutex<Int64>(0)
    /// Turns a row's values into a `SQLiteRow` for `CacheRecord.init(row:)`: `SELECT ?, ?, …`.
    private let decoder: SQLiteConnection
    private var decoderStatements: [Int: String] = [:]

    /// Connects, and makes the tables that are missing (one instance at a time).
    ///
    /// - Throws: ``PostgresStoreError`` when the database cannot be reached or set up.
    public static func open(
        _ location: PostgresLocation, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "livedata-postgres")
    ) async throws -> PostgresServerStore {
        let thread = ThreadExecutor(name: "livedata-postgres")
        do {
            return try await thread.perform {
                try PostgresServerStore(location: location, thread: thread, eventLoopGroup: eventLoopGroup, logger: logger)
            }
        } catch {
            thread.stop()
            throw error
        }
    }

    private init(
        location: PostgresLocation, thread: ThreadExecutor, eventLoopGroup: any EventLoopGroup, logger: Logger
    ) throws {
        self.thread = thread
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        configuration = Self.configuration(location)
        decoder = try SQLiteConnection(location: .inMemory)
        try migrate()
    }

    /// The connection settings of a location (no TLS: the database is on a trusted network).
    static func configuration(_ location: PostgresLocation) -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
    }

    /// The change log's counter as the last write transaction of this store that took the
    /// change log's lock committed it (0 before the first); readable from any thread.
    ///
    /// Such a transaction read every entry committed before it took the lock, and logged its
    /// own after them: a server on this store (`EmbeddedServer`) publishes all of them once it
    /// commits, so ``PostgresChangeListener`` has nothing to read for a notice up to it.
    public var lastOwnSequence: Int64 { ownSequence.withLock { $0 } }

    /// The store's thread, where the server's isolation and every statement run.
    public var executor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Closes the connection and lets the thread end. Call it once the server is done with the store.
    public func close() {
        let connection = self.connection
        self.connection = nil
        _ = try? connection?.close().wait()
        thread.stop()
    }

    private func migrate() throws {
        try transaction(lockingChangeLog: false) {
            // Instances starting together make the tables one after the other.
            _ = try run("SELECT pg_advisory_xact_lock(7230023)")
            for table in LiveSocialSchema.tables {
                for statement in PostgresDialect.createStatements(table) { _ = try run(statement) }
            }
            for statement in PostgresDialect.serverTables { _ = try run(statement) }
        }
    }

    // MARK: Statements

    private func onThread() {
        assert(thread.isCurrent, "the PostgreSQL store is used off its thread")
    }

    func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        guard depth == 0 else { throw PostgresStoreError.connectionLost("the connection was lost in a transaction") }
        connectionCount += 1
        do {
            let made = try PostgresConnection.connect(
                on: eventLoopGroup.next(), configuration: configuration, id: connectionCount, logger: logger
            ).wait()
            connection = made
            unconfirmed.removeAll()  // the lost connection's
            return made
        } catch {
            // Refused or reset while PostgreSQL restarts; a wrong password or database is not a loss.
            throw PostgresStoreError(error)
        }
    }

    /// Runs one statement (`?` placeholders) and returns its rows; the writes waiting to be sent
    /// (see ``queue(_:_:)``) go first, in the same trip to the database.
    ///
    /// In a transaction, a read prepared earlier is answered from ``readAhead`` without a trip,
    /// as long as nothing the transaction wrote since could have changed the answer.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = [], readsOneRecord: Bool = false) throws -> [PostgresRow] {
        if let answer = readAhead?.answer(sql, values, readsOneRecord: readsOneRecord) { return answer }
        return try send([query(sql, values)])[0]
    }

    /// Queues a statement whose answer nobody needs (a write, `BEGIN`): it is sent before the
    /// next statement that is run, in the same trip, and its failure is that statement's.
    func queue(_ sql: String, _ values: [SQLiteValue] = []) {
        onThread()
        deferred.append(query(sql, values))
    }

    /// Queues a change-log entry (see ``queue(_:_:)``): the entries of a trip go as one `INSERT`.
    func queueEntry(_ change: ChangeRecord, sequence: Int64) {
        onThread()
        readAhead?.forget(afterWritingTo: "server_changelog")
        deferredEntries += [
            .integer(sequence), .text(change.key.kind.rawValue), .text(change.key.id), .bool(change.isRemoval),
            .optional(change.scope), .bool(change.isCreation), .optional(change.channelId),
        ]
    }

    /// Runs a statement whose answer nobody needs: in a transaction, queued (see
    /// ``queue(_:_:)``), so that it goes with the next statement or the commit; outside one, now.
    ///
    /// - Parameter row: the one record the statement writes (its table, its id, and the record,
    ///   nil for a removal), which reads by id then answer without a trip (see ``ReadAhead``).
    func write(
        _ sql: String, _ values: [SQLiteValue] = [], row: (table: String, id: String, record: ReadAhead.Written)? = nil
    ) throws {
        if let row {
            readAhead?.wrote(row.table, id: row.id, row.record)
        } else {
            readAhead?.forget(afterWriting: sql)
        }
        guard depth > 0 else {
            try run(sql, values)
            return
        }
        queue(sql, values)
        // A long run of writes (a bulk insert) goes in trips of a bounded size.
        if deferred.count >= Self.tripSize { try send([]) }
    }

    /// How many statements or change-log entries a trip sends at most without a reason to wait.
    static let tripSize = 256

    /// A statement with its `?` placeholders numbered for PostgreSQL.
    func query(_ sql: String, _ values: [SQLiteValue]) -> PostgresQuery {
        let numbered = numberedStatements[sql] ?? {
            let numbered = PostgresDialect.numbered(sql).sql
            if numberedStatements.count >= 512 { numberedStatements.removeAll() }
            numberedStatements[sql] = numbered
            return numbered
        }()
        return PostgresQuery(unsafeSQL: numbered, binds: PostgresValues.bindings(values))
    }

    /// Sends the deferred statements and `queries` at once (postgres-nio runs them in order on
    /// the connection, with no wait on this thread between them) and returns the rows of each of
    /// `queries`. The first failure is thrown; PostgreSQL refuses the rest of an aborted transaction.
    @discardableResult
    func send(_ queries: [PostgresQuery]) throws -> [[PostgresRow]] {
        onThread()
        var batch = deferred
        deferred.removeAll()
        // In statements of at most `tripSize` entries: PostgreSQL takes up to 65,535 bindings.
        for start in stride(from: 0, to: deferredEntries.count, by: 7 * Self.tripSize) {
            let values = Array(deferredEntries[start..<min(start + 7 * Self.tripSize, deferredEntries.count)])
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: values.count / 7).joined(separator: ", ")
            batch.append(query(
                "INSERT INTO server_changelog (sequence, kind, recordId, isRemoval, scope, isCreation, channelId) VALUES \(rows)",
                values))
        }
        deferredEntries.removeAll()
        batch += queries
        let connection = try connected()
        beforeHandOver?(connection)
        trips += 1
        let futures = unconfirmed + batch.map { handOver($0, to: connection) }
        unconfirmed.removeAll()
        let results = try EventLoopFuture.whenAllComplete(futures, on: connection.eventLoop).wait()
        for result in results {
            guard case .failure(let error) = result else { continue }
            // Classified by postgres-nio's error code and the server's SQLSTATE, not by its text.
            let failure = PostgresStoreError(error, connectionClosed: connection.isClosed)
            if case .connectionLost = failure {
                // Not used again, even before postgres-nio hears the socket close: the next
                // transaction connects anew. Closing a dead connection is quick (no answer awaited).
                self.connection = nil
                let closing: EventLoopFuture<Void> = connection.close()
                _ = try? closing.wait()
            }
            throw failure
        }
        return results.suffix(queries.count).map { result in
            if case .success(let answer) = result { answer.rows } else { [] }
        }
    }

    /// Hands `query` to `connection` on the connection's event loop and returns its answer.
    ///
    /// There, a connection that is open still has its channel's handlers, and a statement handed
    /// to it is answered, or failed once the connection closes. Handed over from this thread, it
    /// could reach the connection after its close was handled, although `connected()` found it
    /// open just before (PostgreSQL restarting, this thread waiting for a core): NIO drops a
    /// write to a channel whose handlers are gone, so the answer never came and this thread
    /// waited for it forever, the server it runs for stopped.
    func handOver(_ query: PostgresQuery, to connection: PostgresConnection) -> EventLoopFuture<PostgresQueryResult> {
        let logger = self.logger
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else {
                return connection.eventLoop.makeFailedFuture(
                    PostgresStoreError.connectionLost("the connection closed before the statement was sent"))
            }
            return connection.query(query, logger: logger)
        }
    }

    /// The first column of the first row, if any.
    func first(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteValue? {
        guard let row = try run(sql, values).first, let cell = row.first else { return nil }
        return try PostgresValues.value(of: cell)
    }

    /// Records from rows of their table's columns.
    func decode<Record: CacheRecord>(_ type: Record.Type, _ values: [SQLiteValue]) throws -> Record {
        let sql = decoderStatements[values.count] ?? {
            let sql = "SELECT " + Array(repeating: "?", count: values.count).joined(separator: ", ")
            decoderStatements[values.count] = sql
            return sql
        }()
        guard let record = try decoder.query(sql, values, row: { try Record(row: $0) }).first else {
            throw PostgresStoreError.database("a row of \(Record.table.name) could not be read")
        }
        return record
    }
}
