import LiveRepository

/// The database schema of the social domain, for the client cache and the server alike.
///
/// Give ``migrations`` to a `SQLiteMigrator` (or to the cache that runs one). Version 1 creates
/// the table of every model in ``recordTypes`` with its indexes. A later version adds a migration
/// here; shipped migrations never change.
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
            sql: tables.map(\.createStatements).joined()),
    ]
}
