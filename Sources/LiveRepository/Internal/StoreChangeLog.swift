/// The change log of a store file, and how far one store has read it.
///
/// Every ``LiveStore`` on a file appends one row to the table `live_store_changes` in each
/// write transaction that changed something: the ``StoreChange`` it is about to publish, in
/// ``StoreChangeCoding``'s form. A rolled-back transaction leaves no row. Another store on the
/// same file (another connection, another process) learns from SQLite that the file changed
/// (`PRAGMA data_version` differs: it changes only for other connections' commits) and reads
/// the rows after the last one it has seen. A commit that left no row (a writer that is not a
/// `LiveStore`), or rows it can no longer read (trimmed while it was not looking, or not in this
/// format), count as a change of every row of every table.
///
/// Not `Sendable`: a log belongs to its store and is used only on the store's queue, with the
/// store's writing connection.
final class StoreChangeLog {
    static let table = "live_store_changes"
    /// The statements each commit runs, written once rather than at each commit.
    private static let readSQL = "SELECT sequence, change FROM \(table) WHERE sequence > ? ORDER BY sequence"
    private static let appendSQL = "INSERT INTO \(table) (change) VALUES (?)"
    /// Rows kept for stores that look late: writers delete older ones every `trimEvery` rows.
    static let kept: Int64 = 2_048
    static let trimEvery: Int64 = 256
    /// The most rows of one table a log row names; a transaction that changed more of a table
    /// logs it as changed whole.
    static let rowLimit = 1_024

    /// The last sequence this store has seen (read, or written itself).
    private(set) var lastSequence: Int64 = 0
    /// `PRAGMA data_version` when the store last read the log or began a write.
    private var dataVersion: Int64 = 0
    /// The sequence of this store's row in the transaction in progress.
    private var written: Int64?

    /// Creates the log table if needed and starts reading after its last row.
    init(connection: SQLiteConnection) throws {
        try reset(connection: connection)
    }

    static func create(on connection: SQLiteConnection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(table) (sequence INTEGER PRIMARY KEY AUTOINCREMENT, change BLOB NOT NULL)")
    }

    /// Starts reading after the log's last row, as when opening (or after a new file replaced a
    /// damaged one, with `connection` open on it).
    func reset(connection: SQLiteConnection) throws {
        try Self.create(on: connection)
        try connection.transaction {
            dataVersion = try Self.dataVersion(connection)
            // The last number given, even when its row was deleted since.
            lastSequence = try connection.queryFirst(
                "SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(Self.table)]) { $0.int64(0) } ?? 0
        }
        written = nil
    }

    private static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.queryFirst("PRAGMA data_version") { $0.int64(0) } ?? 0
    }

    /// What other connections committed since the last look, or nil when nothing.
    ///
    /// Outside a transaction it first asks only whether anything changed (the idle case, a few
    /// microseconds), then reads the log in a read transaction so that the version it records and
    /// the rows it reads are of the same commit. Inside a write transaction (the store's own
    /// write, before it writes) nothing else can commit, so it reads directly.
    func collect(connection: SQLiteConnection) throws -> StoreChange? {
        if connection.isInAutocommitMode {
            guard try Self.dataVersion(connection) != dataVersion else { return nil }
            try connection.execute("BEGIN")
            defer { if !connection.isInAutocommitMode { try? connection.execute("COMMIT") } }
            return try read(connection)
        }
        return try read(connection)
    }

    private func read(_ connection: SQLiteConnection) throws -> StoreChange? {
        let version = try Self.dataVersion(connection)
        guard version != dataVersion else { return nil }
        let rows = try connection.query(
            Self.readSQL, [.integer(lastSequence)]
        ) { ($0.int64(0), $0.bytes(1)) }
        defer {
            dataVersion = version
            if let last = rows.last { lastSequence = last.0 }
        }
        // No row: a commit by something that does not keep the log. A gap: rows trimmed before
        // this store read them (sequences have no gaps otherwise: a rolled-back row takes its
        // number back with it).
        guard let first = rows.first, first.0 == lastSequence + 1 else {
            return try Self.everyTable(connection)
        }
        var change: StoreChange = [:]
        for (_, blob) in rows {
            guard let decoded = StoreChangeCoding.decode(blob) else { return try Self.everyTable(connection) }
            change.merge(decoded) { $0.union($1) }
        }
        return change
    }

    /// A change of every row of every table but the log.
    static func everyTable(_ connection: SQLiteConnection) throws -> StoreChange {
        let tables = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != ?",
            [.text(table)]) { $0.string(0) }
        return Dictionary(uniqueKeysWithValues: tables.map { ($0, TableChange(isWholeTable: true)) })
    }

    /// Inside a write transaction: appends `change` (when not empty) and trims old rows. The
    /// caller calls ``didCommit()`` once the transaction committed.
    func append(_ change: StoreChange, connection: SQLiteConnection) throws {
        written = nil
        guard !change.isEmpty else { return }
        // A table with many rows changed is logged as changed whole: a big batch (a reconnect's
        // burst of events) makes other stores read their windows again anyway, and its ids
        // would make the log row, and the transaction, much larger.
        var logged = change
        for (table, tableChange) in change where tableChange.rowids.count > Self.rowLimit || tableChange.ids.count > Self.rowLimit {
            logged[table] = TableChange(isWholeTable: true, isRebuilt: tableChange.isRebuilt)
        }
        try connection.execute(Self.appendSQL, [.blob(StoreChangeCoding.encode(logged))])
        let sequence = connection.lastInsertRowID
        if sequence % Self.trimEvery == 0 {
            try connection.execute("DELETE FROM \(Self.table) WHERE sequence <= ?", [.integer(sequence - Self.kept)])
        }
        written = sequence
    }

    /// After the transaction that called ``append(_:connection:)`` committed: its row was seen.
    func didCommit() {
        if let written { lastSequence = written }
        written = nil
    }
}
