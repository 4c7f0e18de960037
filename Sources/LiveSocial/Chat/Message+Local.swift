import LiveRepository

extension Message {
    /// The user's messages the server has not stored (pending and failed), oldest first; in one
    /// channel, or in all.
    ///
    /// The `syncState` test is written as a literal so that SQLite uses the partial index of
    /// unsynced messages (schema version 2): the user's own synced messages are never read.
    static func local(of userId: String, in channelId: String?, from connection: SQLiteConnection) throws -> [Message] {
        var sql = "SELECT \(table.columnList) FROM \(table.name) WHERE userId = ? AND syncState <> 'synced'"
        var bindings: [SQLiteValue] = [.text(userId)]
        if let channelId {
            sql += " AND channelId = ?"
            bindings.append(.text(channelId))
        }
        sql += " AND id = clientRequestId ORDER BY createdAt, id"
        return try connection.query(sql, bindings) { try Message(row: $0) }
    }
}
