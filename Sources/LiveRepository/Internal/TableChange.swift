/// What one committed transaction changed in one table.
struct TableChange: Sendable {
    /// The rowids of rows inserted, updated or deleted.
    var rowids: Set<Int64> = []
    /// The `id`s of those rows.
    var ids: Set<String> = []
    /// Whether the table changed in ways not tracked row by row (raw SQL, a rebuilt cache).
    var isWholeTable = false
    /// Whether the cache file was rebuilt empty: live data reloads from the server.
    var isRebuilt = false

    func union(_ other: TableChange) -> TableChange {
        var union = self
        union.formUnion(other)
        return union
    }

    mutating func formUnion(_ other: TableChange) {
        rowids.formUnion(other.rowids)
        ids.formUnion(other.ids)
        isWholeTable = isWholeTable || other.isWholeTable
        isRebuilt = isRebuilt || other.isRebuilt
    }
}

/// What one committed transaction changed, by table name.
typealias StoreChange = [String: TableChange]
