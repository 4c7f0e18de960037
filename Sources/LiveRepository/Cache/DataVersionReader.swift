import CSQLite

/// A read-only connection that reads one file's `PRAGMA data_version` for the timer of
/// ``ExternalChangeMonitor``, and never waits: it has no busy timeout, so a file that is locked
/// (or not there) costs one failed read, and the monitor's queue, which serves every store's
/// wake-ups, never stalls behind it.
///
/// Not `Sendable`: used only on the monitor's queue.
final class DataVersionReader {
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?

    /// Opens `path` for reading; nil when it cannot be opened (no file there, say).
    init?(path: String) {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let database else {
            sqlite3_close_v2(database)
            return nil
        }
        sqlite3_busy_timeout(database, 0)
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(database, "PRAGMA data_version", -1, &prepared, nil) == SQLITE_OK, let prepared else {
            sqlite3_close_v2(database)
            return nil
        }
        handle = database
        statement = prepared
    }

    deinit { close() }

    /// The file's data version now, or nil when it cannot be read at once (locked, damaged).
    func version() -> Int64? {
        guard let statement else { return nil }
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(statement, 0)
    }

    func close() {
        sqlite3_finalize(statement)
        statement = nil
        sqlite3_close_v2(handle)
        handle = nil
    }
}
