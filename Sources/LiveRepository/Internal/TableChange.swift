/// What one committed transaction changed in one table.
package struct TableChange: Sendable {
    /// The rowids of rows inserted, updated or deleted.
    package var rowids: Set<Int64> = []
    /// The `id`s of those rows.
    package var ids: Set<String> = []
    /// Whether the table changed in ways not tracked row by row (raw SQL, a rebuilt cache).
    package var isWholeTable = false
    /// Whether the cache file was rebuilt empty: live data reloads from the server.
    package var isRebuilt = false

    package init(rowids: Set<Int64> = [], ids: Set<String> = [], isWholeTable: Bool = false, isRebuilt: Bool = false) {
        self.rowids = rowids
        self.ids = ids
        self.isWholeTable = isWholeTable
        self.isRebuilt = isRebuilt
    }

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
package typealias StoreChange = [String: TableChange]
