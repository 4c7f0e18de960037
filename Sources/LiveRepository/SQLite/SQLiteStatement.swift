import CSQLite

/// A prepared SQL statement of one ``SQLiteConnection``.
///
/// Prepare once, then bind, step and reset as often as needed: the connection keeps a cache of
/// statements by their SQL, so ``SQLiteConnection/execute(_:_:)`` and
/// ``SQLiteConnection/query(_:_:row:)`` prepare each statement only once. A statement belongs
/// to its connection and, like it, is used from one thread at a time.
public final class SQLiteStatement {
    /// The SQL text the statement was prepared from.
    public let sql: String
    let handle: OpaquePointer
    /// Weak: the connection owns its cached statements. A statement kept after its connection
    /// closed or went away throws ``SQLiteError/closed``.
    private weak var connection: SQLiteConnection?

    init(connection: SQLiteConnection, sql: String) throws {
        guard let database = connection.handle else { throw SQLiteError.closed }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw connection.error(code: code, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of `?` parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `values` to its parameters, in order (every parameter is
    /// bound, so no value of an earlier run is left).
    ///
    /// - Throws: ``SQLiteError`` if the number of values differs from ``parameterCount`` or SQLite
    ///   refuses a value.
    public func bind(_ values: [SQLiteValue]) throws {
        try checkOpen()
        sqlite3_reset(handle)
        guard values.count == parameterCount else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "the statement takes \(parameterCount) parameters, \(values.count) were given",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // The byte count, not -1: with -1 SQLite stops at the first NUL and drops the rest.
            code = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), csqlite_transient())
        case .blob(let bytes):
            // An empty blob is bound as a zero-length blob: a nil pointer would store NULL.
            code = bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0) : bytes.withUnsafeBytes {
                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Runs the statement one step.
    ///
    /// - Returns: `true` when a row is available (read it with ``row``), `false` when done.
    /// - Throws: ``SQLiteError`` with SQLite's message when the step fails.
    public func step() throws -> Bool {
        try checkOpen()
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code)
        }
    }

    private func checkOpen() throws {
        guard let connection, !connection.isClosed else { throw SQLiteError.closed }
    }

    private func failure(_ code: Int32) -> SQLiteError {
        connection?.error(code: code, sql: sql) ?? .closed
    }

    /// The current row. Valid only until the next ``step()``, ``bind(_:)`` or ``reset()``.
    public var row: SQLiteRow { SQLiteRow(handle: handle) }

    /// Resets the statement so it can run again; its bindings are kept.
    public func reset() { sqlite3_reset(handle) }
}
