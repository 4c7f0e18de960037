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

    /// The `WHERE` clause body (without the keyword; `1` when there are no predicates) and its bindings.
    var whereClause: (sql: String, bindings: [SQLiteValue]) {
        guard !predicates.isEmpty else { return ("1", []) }
        var bindings: [SQLiteValue] = []
        let parts = predicates.map { $0.sql(appendingTo: &bindings) }
        return (parts.joined(separator: " AND "), bindings)
    }
}
