import LiveRepository
import LiveSocial

/// The server's own SQLite database (the embedded default ``ServerStore``): the social tables,
/// a change log, id counters, the last timestamp handed out and idempotent answers.
///
/// Not thread-safe, like its connection: ``EmbeddedServer`` (an actor) owns it and uses it
/// from its isolation only, which runs on the database's own thread (a ``ThreadExecutor``): a
/// file another process is writing, or a slow disk, blocks that thread and never one of Swift's
/// cooperative pool. Several processes may open one file: everything that must be unique
/// or ordered across them (sequence numbers, ids, timestamps) is taken inside the write
/// transaction, which holds the file's write lock.
final class ServerDatabase: ServerStore {
    let connection: SQLiteConnection
    /// The thread the server's isolation, and so every SQLite call, runs on.
    private let thread = ThreadExecutor(name: "LiveSocialServer.ServerDatabase")

    var executor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    deinit {
        // The server that ran on the thread is gone with its database: the thread ends.
        thread.stop()
    }

    init(location: SQLiteConnection.Location) throws {
        connection = try SQLiteConnection(location: location)
        // One write transaction around the whole set-up: a second process opening a new file at
        // the same moment waits for it, then finds every table made and migrates nothing.
        try connection.transaction {
            try SQLiteMigrator(LiveSocialSchema.migrations).migrate(connection)
            // The server's own tables live outside the shared schema's versions.
            try connection.executeScript("""
                CREATE TABLE IF NOT EXISTS server_changelog (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL, recordId TEXT NOT NULL, isRemoval INTEGER NOT NULL, scope TEXT,
                    isCreation INTEGER NOT NULL DEFAULT 0, channelId TEXT);
                CREATE INDEX IF NOT EXISTS server_changelog_scope ON server_changelog (scope, sequence);
                CREATE TABLE IF NOT EXISTS server_counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS server_clock (
                    id INTEGER PRIMARY KEY CHECK (id = 1), lastTimestamp REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS server_idempotency (
                    userId TEXT NOT NULL, requestKey TEXT NOT NULL, answer BLOB NOT NULL, storedAt REAL NOT NULL,
                    PRIMARY KEY (userId, requestKey));
                CREATE INDEX IF NOT EXISTS server_idempotency_age ON server_idempotency (storedAt);
                """)
            // Files made before `isCreation` existed: their entries read as updates.
            let columns = try connection.query("PRAGMA table_info(server_changelog)") { $0.string(1) }
            if !columns.contains("isCreation") {
                try connection.execute("ALTER TABLE server_changelog ADD COLUMN isCreation INTEGER NOT NULL DEFAULT 0")
            }
            // Files made before removals logged their channel: those removals have none.
            if !columns.contains("channelId") {
                try connection.execute("ALTER TABLE server_changelog ADD COLUMN channelId TEXT")
            }
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: it holds the file's write lock from
    /// its start, so what it reads cannot change under it); nested calls run in savepoints.
    func transaction<T>(_ body: () throws -> T) throws -> T { try connection.transaction(body) }

    /// Runs `body` in a read transaction: every read sees one snapshot of the file, and no
    /// writer (in this process or another) waits for it.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            if !connection.isInAutocommitMode { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`; 5 seconds unless changed (tests make it zero).
    func setBusyTimeout(milliseconds: Int) throws {
        try connection.execute("PRAGMA busy_timeout = \(milliseconds)")
    }

    // MARK: Records

    func load<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        try Record.read(id: id, from: connection)
    }

    func upsert<Record: CacheRecord>(_ record: Record) throws {
        let table = Record.table
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        try connection.execute(
            "INSERT OR REPLACE INTO \(table.name) (\(table.columnList)) VALUES (\(marks))", record.columnValues)
    }

    func remove(_ key: SocialRecordKey) throws {
        try connection.execute("DELETE FROM \(key.kind.table.name) WHERE id = ?", [.text(key.id)])
    }

    func records<Record: CacheRecord>(
        _ query: CacheQuery<Record>, filter: StoreFilter?, after position: StorePosition?, limit: Int
    ) throws -> [(record: Record, sortValue: SQLiteValue)] {
        let table = Record.table
        var (clause, bindings) = query.whereClause
        if let filter {
            clause = "(\(clause)) AND (\(filter.sql))"
            bindings += filter.bindings
        }
        if let position {
            let after = query.condition(after: position.sortValue, id: position.id)
            clause = "(\(clause)) AND \(after.sql)"
            bindings += after.bindings
        }
        bindings.append(.int(limit))
        let sortIndex = table.columnIndex(query.sortColumn) ?? 0
        return try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(clause) \(query.orderByClause) LIMIT ?", bindings
        ) { row in (record: try Record(row: row), sortValue: row[sortIndex]) }
    }

    func channelMemberships(of channelId: String) throws -> [(userId: String, membership: String)] {
        try connection.query(
            "SELECT userId, membership FROM \(ChannelMember.table.name) WHERE channelId = ?", [.text(channelId)]
        ) { row in (row.string(0), row.string(1)) }
    }

    // MARK: Change log and counters

    func appendChange(_ change: ChangeRecord) throws -> Int64 {
        try connection.execute(
            "INSERT INTO server_changelog (kind, recordId, isRemoval, scope, isCreation, channelId) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(change.key.kind.rawValue), .text(change.key.id), .bool(change.isRemoval), .optional(change.scope),
             .bool(change.isCreation), .optional(change.channelId)])
        return connection.lastInsertRowID
    }

    /// The channel logged with the change of `sequence` (a removal's; see ``appendChange(_:isRemoval:scope:isCreation:channelId:)``).
    func loggedChannelId(sequence: Int64) throws -> String? {
        try connection.queryFirst("SELECT channelId FROM server_changelog WHERE sequence = ?", [.integer(sequence)]) {
            $0.optionalString(0)
        } ?? nil
    }

    func latestSequence() throws -> Int64 {
        try connection.queryFirst("SELECT MAX(sequence) FROM server_changelog") { $0.int64(0) } ?? 0
    }

    /// Up to `limit` change-log entries after `sequence`, oldest first.
    func changeEntries(after sequence: Int64, scope: ChangeScope, limit: Int) throws -> [ChangeEntry] {
        let filter: (sql: String, bindings: [SQLiteValue]) = switch scope {
        case .all: ("", [])
        case .channels: ("AND kind = ?", [.text(SocialRecordKind.channel.rawValue)])
        case .messages(let channelId): ("AND scope = ?", [.text(ChangeRecord.messageScope(channelId))])
        }
        return try connection.query(
            "SELECT sequence, kind, recordId, isRemoval, isCreation, channelId FROM server_changelog WHERE sequence > ? \(filter.sql) ORDER BY sequence LIMIT ?",
            [.integer(sequence)] + filter.bindings + [.int(limit)]
        ) { row in
            guard let kind = SocialRecordKind(rawValue: row.string(1)) else {
                throw SQLiteError.mismatch("unknown record kind '\(row.string(1))' in the change log")
            }
            return ChangeEntry(
                sequence: row.int64(0), key: SocialRecordKey(kind, row.string(2)), isRemoval: row.bool(3),
                isCreation: row.bool(4), channelId: row.optionalString(5))
        }
    }

    /// The time for a write: `clockTime`, or a millisecond after the last timestamp handed out,
    /// by any process, if that is later. Stored, so call it in a write transaction.
    func nextTimestamp(clockTime: Double) throws -> Double {
        let last = try connection.queryFirst("SELECT lastTimestamp FROM server_clock WHERE id = 1") { $0.double(0) }
        let next = last.map { max(clockTime, $0 + 0.001) } ?? clockTime
        try connection.execute(
            "INSERT INTO server_clock (id, lastTimestamp) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET lastTimestamp = excluded.lastTimestamp",
            [.real(next)])
        return next
    }

    /// Makes later timestamps come after `timestamp` (for writes that set their own times).
    func reserveTimestamps(through timestamp: Double) throws {
        try connection.execute(
            "INSERT INTO server_clock (id, lastTimestamp) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET lastTimestamp = max(lastTimestamp, excluded.lastTimestamp)",
            [.real(timestamp)])
    }

    /// Whether a named counter has been taken at least once.
    func hasCounter(_ name: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM server_counters WHERE name = ?", [.text(name)]) { _ in true } ?? false
    }

    /// The next value of a named counter, starting at 1; used for server ids.
    func nextCounter(_ name: String) throws -> Int {
        try connection.execute(
            "INSERT INTO server_counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            [.text(name)])
        return try connection.queryFirst("SELECT value FROM server_counters WHERE name = ?", [.text(name)]) { $0.int(0) } ?? 1
    }

    // MARK: Idempotent answers

    func idempotentAnswer(key: String, userId: String) throws -> [UInt8]? {
        try connection.queryFirst(
            "SELECT answer FROM server_idempotency WHERE userId = ? AND requestKey = ?", [.text(userId), .text(key)]
        ) { $0.bytes(0) }
    }

    func storeIdempotentAnswer(
        _ answer: [UInt8], key: String, userId: String, at time: Double, keepingAfter oldest: Double
    ) throws {
        try connection.execute("DELETE FROM server_idempotency WHERE storedAt <= ?", [.real(oldest)])
        try connection.execute(
            "INSERT INTO server_idempotency (userId, requestKey, answer, storedAt) VALUES (?, ?, ?, ?)",
            [.text(userId), .text(key), .blob(answer), .real(time)])
    }
}

