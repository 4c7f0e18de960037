import Foundation
import GRDB
import LiveRepository
import LiveSocial

/// GRDB's side: a `DatabasePool` on a cache file our store made, and the SQL it runs. GRDB
/// reads and writes our `messages` table with raw SQL; the statements are the ones the cache
/// runs for the same work.
enum GRDBSide {
    /// Opens a pool on `url` with the store's durability setting (WAL, `synchronous = NORMAL`).
    static func openPool(_ url: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabasePool(path: url.path, configuration: configuration)
    }

    /// The newest page of a channel, as the collection's first read orders it.
    static let newestSQL = """
        SELECT * FROM messages WHERE channelId = ? AND isDeleted = 0 \
        ORDER BY createdAt DESC, id DESC LIMIT 20
        """

    /// The number of messages in a channel.
    static let countSQL = "SELECT COUNT(*) FROM messages WHERE channelId = ? AND isDeleted = 0"

    /// The upsert the cache runs for `CacheTransaction.upsert(_:)`: insert, or update the row
    /// with the same id when a column differs; returns the rowid when something changed.
    static let upsertSQL: String = {
        let names = Message.table.columns.map(\.name)
        let updated = names.dropFirst()
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let assignments = updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let current = updated.joined(separator: ", ")
        let incoming = updated.map { "excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO messages (\(names.joined(separator: ", "))) VALUES (\(placeholders)) "
            + "ON CONFLICT(id) DO UPDATE SET \(assignments) WHERE (\(current)) IS NOT (\(incoming)) RETURNING rowid"
    }()

    /// The newest page of a channel as messages: GRDB fetches rows and decodes them into the
    /// same `Message` values the collection decodes (GRDB's `Row` is not `Sendable`).
    static func newestMessages(_ db: Database, channel: String) throws -> [Message] {
        try Row.fetchAll(db, sql: newestSQL, arguments: [channel]).map(message)
    }

    /// Decodes a row of `messages`.
    static func message(_ row: Row) -> Message {
        Message(
            id: row["id"], clientRequestId: row["clientRequestId"], channelId: row["channelId"],
            userId: row["userId"], type: MessageType(rawValue: row["type"]) ?? .text, text: row["text"],
            parentId: row["parentId"], reactionCount: row["reactionCount"], createdAt: row["createdAt"],
            updatedAt: row["updatedAt"], editedAt: row["editedAt"], isDeleted: row["isDeleted"],
            syncState: SyncState(rawValue: row["syncState"]) ?? .synced)
    }

    /// A message's column values as GRDB statement arguments.
    static func arguments(_ message: Message) -> StatementArguments {
        StatementArguments(message.columnValues.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let text): text.databaseValue
            case .blob(let bytes): Data(bytes).databaseValue
            }
        })
    }
}
