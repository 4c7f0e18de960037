extension CacheRecord {
    /// The record with `id` stored through `connection`, or nil.
    ///
    /// For code that holds a connection of its own (a backend with the same tables); inside a
    /// write, ``CacheTransaction/record(_:id:)`` does the same.
    public static func read(id: String, from connection: SQLiteConnection) throws -> Self? {
        try connection.queryFirst("SELECT \(table.columnList) FROM \(table.name) WHERE id = ?", [.text(id)]) {
            try Self(row: $0)
        }
    }

    /// The records matching `query` stored through `connection`, in its order, at most `limit`.
    public static func read(
        _ query: CacheQuery<Self>, limit: Int = .max, from connection: SQLiteConnection
    ) throws -> [Self] {
        let (condition, bindings) = query.whereClause
        return try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(condition) \(query.orderByClause) LIMIT ?",
            bindings + [.int(max(0, limit))]
        ) { try Self(row: $0) }
    }
}
