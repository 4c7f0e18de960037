import LiveRepository

/// Runs a ``CacheQuery`` against the server database one page at a time, with keyset paging.
///
/// Records are ordered by (sort column, id), both in the query's direction. A cursor holds
/// the last (sort value, id) a page returned; the next page starts strictly after it, so rows
/// inserted or deleted between pages never cause duplicates or skips among the others.
/// `NULL` sort values come first in ascending order and last in descending order, as SQLite sorts them.
struct KeysetPage<Record: CacheRecord> {
    let query: CacheQuery<Record>

    /// The `WHERE` body for the query's predicates, mirroring the cache's own translation.
    static func predicateSQL(_ predicates: [CachePredicate], bindings: inout [SQLiteValue]) -> String {
        guard !predicates.isEmpty else { return "1" }
        return predicates.map { predicate -> String in
            switch predicate {
            case .equals(let column, let value):
                bindings.append(value)
                return "\(column) = ?"
            case .notEquals(let column, let value):
                bindings.append(value)
                return "\(column) IS NOT ?"
            case .oneOf(let column, let values):
                guard !values.isEmpty else { return "0" }
                bindings.append(contentsOf: values)
                return "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
            case .lessThan(let column, let value):
                bindings.append(value)
                return "\(column) < ?"
            case .greaterThan(let column, let value):
                bindings.append(value)
                return "\(column) > ?"
            case .isNull(let column):
                return "\(column) IS NULL"
            case .isNotNull(let column):
                return "\(column) IS NOT NULL"
            }
        }.joined(separator: " AND ")
    }

    /// The records after `cursor` (from the start when nil), at most `limit` of them.
    func fetch(in connection: SQLiteConnection, after cursor: PageCursor?, limit: Int) throws -> RemotePage<Record> {
        let table = Record.table
        let column = query.sortColumn
        var bindings: [SQLiteValue] = []
        var clause = Self.predicateSQL(query.predicates, bindings: &bindings)
        if let cursor {
            let compare = query.ascending ? ">" : "<"
            let after: String
            switch (cursor.sortValue, query.ascending) {
            case (.null, true):
                after = "((\(column) IS NULL AND id > ?) OR \(column) IS NOT NULL)"
                bindings.append(.text(cursor.id))
            case (.null, false):
                after = "(\(column) IS NULL AND id < ?)"
                bindings.append(.text(cursor.id))
            case (let value, let ascending):
                after = "(\(column) \(compare) ? OR (\(column) = ? AND id \(compare) ?)"
                    + (ascending ? ")" : " OR \(column) IS NULL)")
                bindings += [value, value, .text(cursor.id)]
            }
            clause = "(\(clause)) AND \(after)"
        }
        let direction = query.ascending ? "ASC" : "DESC"
        bindings.append(.int(limit + 1))
        let sortIndex = table.columnIndex(column) ?? 0
        var rows = try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(clause) ORDER BY \(column) \(direction), id \(direction) LIMIT ?",
            bindings
        ) { row in (record: try Record(row: row), sortValue: row[sortIndex]) }
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        let next = hasMore ? rows.last.map { PageCursor(sortValue: $0.sortValue, id: $0.record.id).encoded } : nil
        return RemotePage(records: rows.map(\.record), nextCursor: next)
    }
}
