import LiveRepository

/// The local removals waiting for the server's answer, kept in the cache in the same transaction
/// as the removal itself: what a run killed meanwhile leaves for the next one to settle (see
/// `SocialClient.settleInterruptedChanges()`). A removal leaves no record behind to mark
/// `syncing`, so without this nobody would know to ask the server.
///
/// The table is made by ``LiveSocialSchema``'s version 3.
enum RemovalJournal {
    static let table = "social_removals_in_flight"

    /// Notes that the record `id` of `recordTable` was removed locally and the server was not told yet.
    static func note(_ recordTable: String, id: String, in transaction: CacheTransaction) throws {
        try transaction.connection.execute(
            "INSERT OR IGNORE INTO \(table) (recordTable, id) VALUES (?, ?)", [.text(recordTable), .text(id)])
    }

    /// Forgets the removal: the server answered, or the next run settled it.
    static func clear(_ recordTable: String, id: String, in transaction: CacheTransaction) throws {
        try transaction.connection.execute(
            "DELETE FROM \(table) WHERE recordTable = ? AND id = ?", [.text(recordTable), .text(id)])
    }

    /// Every removal noted and not cleared, as table name and id.
    static func all(in connection: SQLiteConnection) throws -> [(recordTable: String, id: String)] {
        try connection.query("SELECT recordTable, id FROM \(table)") { ($0.string(0), $0.string(1)) }
    }
}
