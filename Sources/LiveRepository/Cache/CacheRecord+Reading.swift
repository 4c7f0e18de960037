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
    ///
    /// - Parameters:
    ///   - query: which records, in which order.
    ///   - position: when given, only the records after this (sort value, id) in the query's
    ///     order: keyset paging, as in ``CacheQuery/condition(after:id:)``.
    ///   - limit: the most records to return.
    ///   - connection: the connection to read through.
    public static func read(
        _ query: CacheQuery<Self>, after position: (sortValue: SQLiteValue, id: String)? = nil, limit: Int = .max,
        from connection: SQLiteConnection
    ) throws -> [Self] {
        var (condition, bindings) = query.whereClause
        if let position {
            let after = query.condition(after: position.sortValue, id: position.id)
            condition = "(\(condition)) AND \(after.sql)"
            bindings += after.bindings
        }
        return try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(condition) \(query.orderByClause) LIMIT ?",
            bindings + [.int(max(0, limit))]
        ) { try Self(row: $0) }
    }
}
