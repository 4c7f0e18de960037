import CSQLite
import Foundation

/// A connection to a SQLite database: a file, or memory.
///
/// A thin, checked wrapper: statements are prepared once and cached by their SQL, parameters
/// are always bound (never spliced into SQL), and every result code is checked and turned into
/// a ``SQLiteError`` that carries SQLite's message.
///
/// A connection is not thread-safe: use it from one thread or serial queue at a time.
/// ``LiveStore`` confines its connection to its own queue.
///
/// ```swift
/// let db = try SQLiteConnection(location: .inMemory)
/// try db.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)")
/// try db.execute("INSERT INTO notes VALUES (?, ?)", ["n1", "Hello"])
/// let bodies = try db.query("SELECT body FROM notes") { $0.string(0) }
/// ```
public final class SQLiteConnection {
    /// Where a database lives.
    public enum Location: Sendable, Hashable {
        /// A private database in memory, gone when the connection closes. For tests.
        case inMemory
        /// A database file, created if missing.
        case file(URL)
    }

    /// Where this connection's database lives.
    public let location: Location
    private(set) var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (and creates if needed) the database at `location`.
    ///
    /// File databases use write-ahead logging, so readers never wait for a writer.
    ///
    /// - Parameters:
    ///   - location: the database to open: a private in-memory one, or a file.
    ///   - readOnly: open an existing file for reading only.
    /// - Throws: ``SQLiteError`` if the file cannot be opened or is not a database.
    public convenience init(location: Location, readOnly: Bool = false) throws {
        let path: String
        switch location {
        case .inMemory: path = ":memory:"
        case .file(let url): path = url.path
        }
        try self.init(location: location, path: path, flags: 0, readOnly: readOnly, shared: false)
    }

    /// Opens the database in memory called `name`, which every connection of this process that
    /// opens that name shares, creating it if no connection has it open; it is gone when the last
    /// one closes. Through SQLite's `memdb` VFS (SQLite 3.36 or later).
    ///
    /// Such a database has no write-ahead log: while one connection's write transaction runs,
    /// the others' reads wait for its end (up to 5 s), then see its commit, and its commit waits
    /// for the reads under way. Such a wait looks again every 0.1 ms: SQLite's own busy handler
    /// sleeps in steps that grow to 100 ms, which would hold a reader (the main actor, say) long
    /// after the commit.
    convenience init(sharedMemoryNamed name: String, readOnly: Bool = false) throws {
        precondition(!name.contains("?") && !name.contains("#"), "a shared memory name is part of a URI")
        try self.init(location: .inMemory, path: "file:/\(name)?vfs=memdb", flags: SQLITE_OPEN_URI, readOnly: readOnly, shared: true)
    }

    private init(location: Location, path: String, flags extraFlags: Int32, readOnly: Bool, shared: Bool) throws {
        self.location = location
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | extraFlags
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var database: OpaquePointer?
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, message: message + " (\(path))", path: path)
        }
        handle = database
        if shared {
            // Looks again every 0.1 ms, for up to about 5 s (`looks`: how many so far).
            sqlite3_busy_handler(database, { _, looks in
                guard looks < 50_000 else { return 0 }
                usleep(100)
                return 1
            }, nil)
        } else {
            sqlite3_busy_timeout(database, 5_000)
        }
        if case .file = location, !readOnly {
            // Reading the journal mode also proves the file is a database: a damaged header fails here.
            try retryingWhileBusy { _ = try query("PRAGMA journal_mode = WAL") { $0.string(0) } }
            try execute("PRAGMA synchronous = NORMAL")
            try execute("PRAGMA wal_autocheckpoint = 8192")
        } else if readOnly {
            // Read-only files get the same proof by reading the schema's first page.
            _ = try query("SELECT count(*) FROM sqlite_schema") { $0.int(0) }
        }
    }

    deinit { close() }

    /// Runs `body` again while it fails with `SQLITE_BUSY`, for up to the busy timeout (5 s).
    ///
    /// Switching a new file to WAL needs an exclusive lock, and SQLite answers `SQLITE_BUSY` at
    /// once, without waiting in its busy handler, while another connection opening the same new
    /// file (another process, say) holds a lock on it.
    private func retryingWhileBusy(_ body: () throws -> Void) throws {
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.code == SQLITE_BUSY && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(2_000)
            }
        }
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { handle == nil }

    /// Closes the connection. Later calls throw ``SQLiteError/closed``; closing twice does nothing.
    public func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one statement with `bindings` for its `?` parameters, discarding any rows.
    ///
    /// - Throws: ``SQLiteError`` with SQLite's message when preparing, binding or running fails.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
        let statement = try statement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// Runs a script of statements separated by semicolons, without parameters.
    ///
    /// - Throws: ``SQLiteError`` for the first statement that fails.
    public func executeScript(_ sql: String) throws {
        guard let handle else { throw SQLiteError.closed }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql, path: filePath)
        }
    }

    /// Runs a query and maps each row with `row`.
    ///
    /// - Throws: ``SQLiteError`` from SQLite, or whatever `row` throws.
    public func query<T>(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try statement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        var results: [T] = []
        while try statement.step() {
            results.append(try row(statement.row))
        }
        return results
    }

    /// Runs a query and maps its first row, or returns nil when it has none.
    public func queryFirst<T>(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws -> T) throws -> T? {
        let statement = try statement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        return try statement.step() ? row(statement.row) : nil
    }

    /// The cached prepared statement for `sql`, prepared on first use.
    ///
    /// While the cached statement is between rows (a query over it is still reading, say a
    /// nested query runs the same SQL from its row block), this returns a new, uncached
    /// statement instead, so that the nested use cannot reset the outer one.
    public func statement(_ sql: String) throws -> SQLiteStatement {
        guard handle != nil else { throw SQLiteError.closed }
        if let cached = statements[sql] {
            if sqlite3_stmt_busy(cached.handle) == 0 { return cached }
            return try SQLiteStatement(connection: self, sql: sql)
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Nested calls run in savepoints, so an inner failure rolls back only the inner work.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        guard handle != nil else { throw SQLiteError.closed }
        let nested = !isInAutocommitMode
        let name = "livedata_\(savepointDepth)"
        try execute(nested ? "SAVEPOINT \(name)" : "BEGIN IMMEDIATE")
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try execute(nested ? "RELEASE \(name)" : "COMMIT")
            return result
        } catch {
            if nested {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
            } else if !isInAutocommitMode {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }
    private var savepointDepth = 0

    /// Frees the memory SQLite holds for this connection that it does not need (unused pages of
    /// its page cache), as after a large transaction.
    public func releaseMemory() {
        if let handle { sqlite3_db_release_memory(handle) }
    }

    /// Whether no transaction is open (SQLite's autocommit mode); false on a closed connection.
    public var isInAutocommitMode: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? false }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// The schema version stored in the file (`PRAGMA user_version`); ``SQLiteMigrator`` keeps it.
    public func userVersion() throws -> Int {
        try queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// Stores the schema version (`PRAGMA user_version`).
    public func setUserVersion(_ version: Int) throws {
        try executeScript("PRAGMA user_version = \(version)")
    }

    func error(code: Int32, sql: String?) -> SQLiteError {
        guard let handle else { return .closed }
        return SQLiteError(
            code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: filePath)
    }

    /// The path of a file database, for its errors; nil in memory.
    private var filePath: String? {
        if case .file(let url) = location { url.path } else { nil }
    }
}
