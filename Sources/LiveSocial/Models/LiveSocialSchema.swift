import LiveRepository

/// The database schema of the social domain, for the client cache and the server alike.
///
/// Give ``migrations`` to a `SQLiteMigrator` (or to the cache that runs one). Version 1 creates
/// the table of every model in ``recordTypes`` with its indexes, as the tables were when it
/// shipped; version 2 adds the message columns `metaArrays` and `reactions`, and a partial index of the
/// messages the server has not stored. A later version adds
/// a migration here; shipped migrations never change.
public enum LiveSocialSchema {
    /// Every model the schema stores, in the order their tables are created.
    public static let recordTypes: [any CacheRecord.Type] = SocialRecordKind.allCases.map(\.recordType)

    /// The tables of ``recordTypes``.
    public static var tables: [RecordTable] { recordTypes.map { $0.table } }

    /// The migrations, oldest first.
    public static let migrations: [SQLiteMigration] = [
        SQLiteMigration(
            version: 1,
            name: "create social tables",
            sql: tables.map { version1(of: $0).createStatements }.joined()),
        SQLiteMigration(
            version: 2,
            name: "add message meta arrays and reactions",
            sql: """
                ALTER TABLE messages ADD COLUMN metaArrays TEXT NOT NULL DEFAULT '{}';
                ALTER TABLE messages ADD COLUMN reactions TEXT NOT NULL DEFAULT '[]';
                CREATE INDEX messages_unsynced ON messages (userId, channelId) WHERE syncState <> 'synced';
                """),
        SQLiteMigration(
            version: 3,
            name: "add the journal of removals in flight",
            sql: """
                CREATE TABLE social_removals_in_flight (
                    recordTable TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (recordTable, id));
                """),
    ]

    /// Columns added by a later version, by table: version 1 creates the tables without them,
    /// so it stays what it was when it shipped.
    private static let laterColumns: [String: Set<String>] = ["messages": ["metaArrays", "reactions"]]

    /// A table as version 1 created it.
    private static func version1(of table: RecordTable) -> RecordTable {
        guard let later = laterColumns[table.name] else { return table }
        return RecordTable(name: table.name, columns: table.columns.filter { !later.contains($0.name) },
                           indexes: table.indexes)
    }
}
