import LiveRepository

/// Runs a ``CacheQuery`` against the server database one page at a time, with keyset paging.
///
/// Records are ordered by (sort column, id), both in the query's direction. A cursor holds
/// the last (sort value, id) a page returned; the next page starts strictly after it, so rows
/// inserted or deleted between pages never cause duplicates or skips among the others.
/// `NULL` sort values come first in ascending order and last in descending order, as SQLite sorts them.
struct KeysetPage<Record: CacheRecord> {
    let query: CacheQuery<Record>
    /// A further SQL condition rows must meet (what the reader may see), with its bindings; nil for none.
    var filter: (sql: String, bindings: [SQLiteValue])?

    init(query: CacheQuery<Record>, filter: (sql: String, bindings: [SQLiteValue])? = nil) {
        self.query = query
        self.filter = filter
    }

    /// The records after `cursor` (from the start when nil), at most `limit` of them.
    func fetch(in connection: SQLiteConnection, after cursor: PageCursor?, limit: Int) throws -> RemotePage<Record> {
        let table = Record.table
        var (clause, bindings) = query.whereClause
        if let filter {
            clause = "(\(clause)) AND \(filter.sql)"
            bindings += filter.bindings
        }
        if let cursor {
            let after = query.condition(after: cursor.sortValue, id: cursor.id)
            clause = "(\(clause)) AND \(after.sql)"
            bindings += after.bindings
        }
        bindings.append(.int(limit + 1))
        let sortIndex = table.columnIndex(query.sortColumn) ?? 0
        var rows = try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(clause) \(query.orderByClause) LIMIT ?",
            bindings
        ) { row in (record: try Record(row: row), sortValue: row[sortIndex]) }
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        let next = hasMore ? rows.last.map { PageCursor(sortValue: $0.sortValue, id: $0.record.id).encoded } : nil
        return RemotePage(records: rows.map(\.record), nextCursor: next)
    }
}
