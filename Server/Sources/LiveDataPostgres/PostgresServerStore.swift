import LiveRepository
import LiveSocial
import LiveSocialServer
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

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
/// - Notifications: a transaction that logged changes sends `pg_notify` on
///   ``notificationChannel`` before its `COMMIT`, so the notice goes out if and only if it commits.
///   ``PostgresChangeListener`` hears them for an instance.
/// - Records keep SQLite's types and ordering: see ``PostgresValues`` and ``PostgresDialect``.
/// - A lost connection is opened again at the next transaction; the transaction it broke fails
///   with ``PostgresStoreError/connectionLost(_:)`` (see
///   ``PostgresStoreError/isConnectionLoss(_:sqlState:)``) and, like any failed write, stores
///   nothing, or its outcome is unknown when the loss hit its `COMMIT`.
public final class PostgresServerStore: ServerStore, @unchecked Sendable {
    // @unchecked Sendable: every member below is used on `thread`'s one thread only: the
    // server's isolation runs there, and `open` creates the store there (checked by `onThread()`).
    /// The thread the store, and the server's isolation, run on.
    public let thread: ThreadExecutor
    /// The channel `pg_notify` announces committed changes on, with the last sequence number as payload.
    public static let notificationChannel = "livedata_changes"

    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private var connection: PostgresConnection?
    private var connectionCount = 0
    private var depth = 0
    private var loggedChanges = false
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

    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        guard depth == 0 else { throw PostgresStoreError.connectionLost("the connection was lost in a transaction") }
        connectionCount += 1
        do {
            let made = try PostgresConnection.connect(
                on: eventLoopGroup.next(), configuration: configuration, id: connectionCount, logger: logger
            ).wait()
            connection = made
            return made
        } catch {
            // Refused or reset while PostgreSQL restarts; a wrong password or database is not a loss.
            throw PostgresStoreError(error)
        }
    }

    /// Runs one statement (`?` placeholders) and returns its rows.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> [PostgresRow] {
        onThread()
        let query = PostgresQuery(unsafeSQL: PostgresDialect.numbered(sql).sql, binds: PostgresValues.bindings(values))
        let connection = try connected()
        do {
            return try connection.query(query, logger: logger).wait().rows
        } catch {
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

    // MARK: Transactions

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(lockingChangeLog: true, body)
    }

    private func transaction<T>(lockingChangeLog: Bool, _ body: () throws -> T) throws -> T {
        if depth > 0 { return try savepoint(body) }
        return try notingOutcome { try outermostTransaction(lockingChangeLog: lockingChangeLog, body) }
    }

    private func outermostTransaction<T>(lockingChangeLog: Bool, _ body: () throws -> T) throws -> T {
        try run("BEGIN")
        depth = 1
        loggedChanges = false
        do {
            if lockingChangeLog {
                try run("SELECT value FROM server_counters WHERE name = ? FOR UPDATE", [.text(PostgresDialect.changeLogCounter)])
            }
            let result = try body()
            if loggedChanges {
                try run("SELECT pg_notify(?, value::text) FROM server_counters WHERE name = ?",
                        [.text(Self.notificationChannel), .text(PostgresDialect.changeLogCounter)])
            }
            try run("COMMIT")
            depth = 0
            return result
        } catch {
            if let connection, !connection.isClosed {
                _ = try? connection.query("ROLLBACK", logger: logger).wait()
            }
            depth = 0
            throw error
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        let name = "s\(depth)"
        try run("SAVEPOINT \(name)")
        depth += 1
        defer { depth -= 1 }
        do {
            let result = try body()
            try run("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            _ = try? run("ROLLBACK TO SAVEPOINT \(name)")
            throw error
        }
    }

    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if depth > 0 { return try body() }
        return try notingOutcome { try outermostReadTransaction(body) }
    }

    private func outermostReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        depth = 1
        do {
            let result = try body()
            try run("COMMIT")
            depth = 0
            return result
        } catch {
            if let connection, !connection.isClosed {
                _ = try? connection.query("ROLLBACK", logger: logger).wait()
            }
            depth = 0
            throw error
        }
    }

    /// Runs an outermost transaction and notes how it ended for ``revealingStoreErrors(_:)``, when
    /// the task runs in it: its ``PostgresStoreError`` if it failed with one, nothing otherwise.
    private func notingOutcome<T>(_ transaction: () throws -> T) throws -> T {
        do {
            let result = try transaction()
            Self.failureRecord?.note(nil)
            return result
        } catch {
            Self.failureRecord?.note(error as? PostgresStoreError)
            throw error
        }
    }

    /// Notes that the open transaction logged a change, so that its commit is announced.
    func noteLoggedChange() { loggedChanges = true }
}
