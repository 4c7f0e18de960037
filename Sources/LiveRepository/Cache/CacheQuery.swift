/// A query over the cache: which records of a type, in which order.
///
/// A ``LiveCollection`` shows a window of a query's results. Predicates are combined with AND;
/// records with equal sort values are ordered by `id`, so the order is always total.
///
/// ```swift
/// let query = CacheQuery<Message>(
///     [.equals("channelId", "general"), .equals("isDeleted", false)],
///     orderBy: "createdAt", ascending: false)
/// ```
public struct CacheQuery<Record: CacheRecord>: Sendable, Hashable {
    /// The conditions a record must meet, all of them.
    public var predicates: [CachePredicate]
    /// The column the results are sorted by.
    public var sortColumn: String
    /// Whether the results run from the smallest sort value to the largest.
    public var ascending: Bool

    /// Creates a query.
    ///
    /// - Precondition: every column named exists in `Record.table`.
    public init(_ predicates: [CachePredicate] = [], orderBy sortColumn: String, ascending: Bool = true) {
        let table = Record.table
        precondition(table.columnIndex(sortColumn) != nil, "\(table.name) has no column \(sortColumn)")
        for predicate in predicates {
            precondition(table.columnIndex(predicate.column) != nil, "\(table.name) has no column \(predicate.column)")
        }
        self.predicates = predicates
        self.sortColumn = sortColumn
        self.ascending = ascending
    }

    /// The query in the opposite order.
    public var reversed: CacheQuery {
        var query = self
        query.ascending.toggle()
        return query
    }

    /// `ORDER BY` the sort column, then `id`, both in the query's direction: the query's total order.
    public var orderByClause: String {
        let direction = ascending ? "ASC" : "DESC"
        return "ORDER BY \(sortColumn) \(direction), id \(direction)"
    }

    /// The predicates as the body of a SQL `WHERE` clause (without the keyword; `1` when there
    /// are none) and the values to bind to its `?` parameters, in order. For a backend that
    /// keeps the same tables, such as the embedded server.
    public var whereClause: (sql: String, bindings: [SQLiteValue]) {
        guard !predicates.isEmpty else { return ("1", []) }
        var bindings: [SQLiteValue] = []
        let parts = predicates.map { $0.sql(appendingTo: &bindings) }
        return (parts.joined(separator: " AND "), bindings)
    }

    /// A SQL condition true exactly for the rows after the row with `sortValue` and `id` in this
    /// query's order (SQLite's: `NULL` first when ascending), and its bindings: keyset paging.
    ///
    /// It bounds the sort column with a plain comparison, so SQLite reads the rows as a range of
    /// an index on the query's columns instead of walking it from the start.
    public func condition(after sortValue: SQLiteValue, id: String) -> (sql: String, bindings: [SQLiteValue]) {
        var bindings: [SQLiteValue] = []
        let sql = condition(after: sortValue, id: id, bindings: &bindings)
        return (sql, bindings)
    }

    /// SQL for the rows after (`sortValue`, `id`) in this query's order.
    func condition(after sortValue: SQLiteValue, id: String, bindings: inout [SQLiteValue]) -> String {
        let column = sortColumn
        let id = SQLiteValue.text(id)
        switch (sortValue, ascending) {
        case (.null, true):
            bindings += [id]
            return "(\(column) IS NOT NULL OR id > ?)"
        case (.null, false):
            bindings += [id]
            return "(\(column) IS NULL AND id < ?)"
        case (let value, true):
            bindings += [value, value, id]
            return "(\(column) >= ? AND (\(column) > ? OR id > ?))"
        case (let value, false):
            bindings += [value, value, id]
            // NULLs come last in descending order.
            let range = "(\(column) <= ? AND (\(column) < ? OR id < ?))"
            return isSortColumnNullable ? "(\(range) OR \(column) IS NULL)" : range
        }
    }

    /// SQL for the rows at or before (`sortValue`, `id`) in this query's order.
    func condition(notAfter sortValue: SQLiteValue, id: String, bindings: inout [SQLiteValue]) -> String {
        let column = sortColumn
        let id = SQLiteValue.text(id)
        switch (sortValue, ascending) {
        case (.null, true):
            bindings += [id]
            return "(\(column) IS NULL AND id <= ?)"
        case (.null, false):
            bindings += [id]
            return "(\(column) IS NOT NULL OR id >= ?)"
        case (let value, true):
            bindings += [value, value, id]
            // NULLs come first in ascending order.
            let range = "(\(column) <= ? AND (\(column) < ? OR id <= ?))"
            return isSortColumnNullable ? "(\(range) OR \(column) IS NULL)" : range
        case (let value, false):
            bindings += [value, value, id]
            return "(\(column) >= ? AND (\(column) > ? OR id >= ?))"
        }
    }

    /// Whether the sort column may hold `NULL`.
    private var isSortColumnNullable: Bool {
        Record.table.columns.first { $0.name == sortColumn }?.isNullable ?? true
    }
}
