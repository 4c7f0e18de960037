import LiveRepository
import LiveSocial

/// The server's own SQLite database: the social tables, a change log and id counters.
///
/// Not thread-safe, like its connection: ``EmbeddedServer`` (an actor) owns it and uses it
/// from its isolation only.
final class ServerDatabase {
    let connection: SQLiteConnection

    init(location: SQLiteConnection.Location) throws {
        connection = try SQLiteConnection(location: location)
        try SQLiteMigrator(LiveSocialSchema.migrations).migrate(connection)
        // The server's own tables live outside the shared schema's versions.
        try connection.executeScript("""
            CREATE TABLE IF NOT EXISTS server_changelog (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL, recordId TEXT NOT NULL, isRemoval INTEGER NOT NULL, scope TEXT);
            CREATE INDEX IF NOT EXISTS server_changelog_scope ON server_changelog (scope, sequence);
            CREATE TABLE IF NOT EXISTS server_counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
            """)
    }

    func transaction<T>(_ body: () throws -> T) throws -> T { try connection.transaction(body) }

    // MARK: Records

    func load<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        try Record.read(id: id, from: connection)
    }

    func load(_ key: SocialRecordKey) throws -> SocialRecord? {
        func open<Record: CacheRecord>(_ type: Record.Type) throws -> SocialRecord? {
            try load(type, id: key.id).flatMap { SocialRecord($0) }
        }
        return try open(key.kind.recordType)
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

    // MARK: Change log and counters

    /// Logs a change and returns its sequence number. `scope` is the channel a message belongs to (messages are never removed,
    /// so a removal needs none); scoped catch-ups read only their own entries.
    func appendChange(_ key: SocialRecordKey, isRemoval: Bool, scope: String?) throws -> Int64 {
        try connection.execute(
            "INSERT INTO server_changelog (kind, recordId, isRemoval, scope) VALUES (?, ?, ?, ?)",
            [.text(key.kind.rawValue), .text(key.id), .bool(isRemoval), .optional(scope)])
        return connection.lastInsertRowID
    }

    /// The change log scope of a record: its channel for a message, else nil.
    static func scope(of record: SocialRecord) -> String? {
        if case .message(let message) = record { return messageScope(message.channelId) }
        return nil
    }

    /// The change log scope of a channel's messages.
    static func messageScope(_ channelId: String) -> String { "channel:" + channelId }

    var latestSequence: Int64 {
        get throws { try connection.queryFirst("SELECT MAX(sequence) FROM server_changelog") { $0.int64(0) } ?? 0 }
    }

    /// Up to `limit` change-log entries after `sequence`, oldest first.
    func changeEntries(
        after sequence: Int64, scope: ChangeScope, limit: Int
    ) throws -> [(sequence: Int64, key: SocialRecordKey, isRemoval: Bool)] {
        let filter: (sql: String, bindings: [SQLiteValue]) = switch scope {
        case .all: ("", [])
        case .channels: ("AND kind = ?", [.text(SocialRecordKind.channel.rawValue)])
        case .messages(let channelId): ("AND scope = ?", [.text(Self.messageScope(channelId))])
        }
        return try connection.query(
            "SELECT sequence, kind, recordId, isRemoval FROM server_changelog WHERE sequence > ? \(filter.sql) ORDER BY sequence LIMIT ?",
            [.integer(sequence)] + filter.bindings + [.int(limit)]
        ) { row in
            guard let kind = SocialRecordKind(rawValue: row.string(1)) else {
                throw SQLiteError.mismatch("unknown record kind '\(row.string(1))' in the change log")
            }
            return (row.int64(0), SocialRecordKey(kind, row.string(2)), row.bool(3))
        }
    }

    /// The next value of a named counter, starting at 1; used for server ids.
    func nextCounter(_ name: String) throws -> Int {
        try connection.execute(
            "INSERT INTO server_counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            [.text(name)])
        return try connection.queryFirst("SELECT value FROM server_counters WHERE name = ?", [.text(name)]) { $0.int(0) } ?? 1
    }
}
