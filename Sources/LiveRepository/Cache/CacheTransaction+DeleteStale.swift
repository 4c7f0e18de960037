import Foundation

extension CacheTransaction {
    /// Deletes the stored records of `query` that a server page shows are gone: those after
    /// `start` (from the first when nil) through `end` (to the last when nil), in the query's
    /// order, whose ids the page did not return.
    ///
    /// Records of a table with a `syncState` column that is not `synced` are local changes the
    /// server has not seen yet (a pending message, an edit under way), and are kept. The range is
    /// read as an index range, so the cost follows the page, not the table.
    ///
    /// - Parameters:
    ///   - query: the list the page belongs to, in the order the page was read.
    ///   - start: the (sort value, id) the page started after, or nil for a first page.
    ///   - end: the (sort value, id) of the page's last record, or nil when the page was the last.
    ///   - ids: the ids the page returned.
    /// - Returns: how many records were deleted.
    @discardableResult
    public func deleteStale<Record: CacheRecord>(
        _ query: CacheQuery<Record>, after start: (sortValue: SQLiteValue, id: String)?,
        through end: (sortValue: SQLiteValue, id: String)?, keeping ids: some Sequence<String>
    ) throws -> Int {
        var (condition, bindings) = query.whereClause
        if let start {
            condition += " AND " + query.condition(after: start.sortValue, id: start.id, bindings: &bindings)
        }
        if let end {
            condition += " AND " + query.condition(notAfter: end.sortValue, id: end.id, bindings: &bindings)
        }
        condition += " AND id NOT IN (SELECT value FROM json_each(?))"
        bindings.append(.text(Self.jsonArray(ids)))
        if Record.table.columnIndex("syncState") != nil {
            condition += " AND syncState = 'synced'"
        }
        return try deleteRows(of: Record.table, where: condition, bindings)
    }

    /// Strings as a JSON array, for `json_each`.
    static func jsonArray(_ ids: some Sequence<String>) -> String {
        var text = "["
        for (offset, id) in ids.enumerated() {
            if offset > 0 { text += "," }
            text += "\""
            for scalar in id.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }
}
