import Foundation
import LiveRepository

/// The server's messages read with plain SQL from its file, on a connection of their own: the
/// model check's reference, independent of the library's queries.
final class ServerReference {
    /// One stored message, as the reference needs it.
    struct Row: Hashable {
        var id: String
        var clientRequestId: String
        var userId: String
        var text: String
        var createdAt: Double
        var isDeleted: Bool
        var editedAt: Double?
    }

    private let connection: SQLiteConnection

    init(file: URL) throws {
        connection = try SQLiteConnection(location: .file(file), readOnly: true)
    }

    /// Every message of `channelId`, deleted ones included, oldest first by (createdAt, id).
    func messages(in channelId: String) throws -> [Row] {
        try connection.query(
            "SELECT id, clientRequestId, userId, text, createdAt, isDeleted, editedAt FROM messages WHERE channelId = ? ORDER BY createdAt, id",
            [.text(channelId)]
        ) { row in
            Row(id: row.string(0), clientRequestId: row.string(1), userId: row.string(2), text: row.string(3),
                createdAt: row.double(4), isDeleted: row.bool(5), editedAt: row.optionalDouble(6))
        }
    }

    func close() { connection.close() }
}
