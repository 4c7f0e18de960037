import Foundation

/// The reads behind a live collection's window, run on the store's queue.
///
/// Rows are identified by `(sort value, id, rowid)` only; whole records are decoded just for the
/// rows a collection needs to show, so a window of any size stays small in memory.
struct WindowReader<Record: CacheRecord>: Sendable {
    let query: CacheQuery<Record>
    /// Whether anchor order is ascending in the sort column.
    let ascending: Bool

    /// The query in anchor order.
    private let anchorOrder: CacheQuery<Record>
    private let table: RecordTable
    private let keyColumns: String
    private let order: String
    /// The query's condition, with its bindings.
    private let whereClause: (sql: String, bindings: [SQLiteValue])
    /// The statements of the reads each commit makes (``matching(_:in:)``, ``records(_:in:)``).
    private let matchingSQL: String
    private let recordsSQL: String
    /// The same for one rowid, bound as an integer: a commit of one row (a message sent) makes no
    /// JSON text for SQLite to parse.
    private let matchingOneSQL: String
    private let recordOneSQL: String

    /// The reader of `query`'s rows in anchor order (`ascending` or not). The SQL it runs is
    /// written here once: written at each read, it was a tenth of a refresh's time, since this
    /// code runs unspecialized (`Record` is known only at run time).
    init(query: CacheQuery<Record>, ascending: Bool) {
        self.query = query
        self.ascending = ascending
        anchorOrder = query.ascending == ascending ? query : query.reversed
        table = Record.table
        keyColumns = "rowid, \(query.sortColumn), id"
        order = anchorOrder.orderByClause
        whereClause = query.whereClause
        matchingSQL = "SELECT \(keyColumns) FROM \(table.name) NOT INDEXED "
            + "WHERE rowid IN (SELECT value FROM json_each(?)) AND (\(whereClause.sql))"
        recordsSQL = "SELECT \(table.columnList), rowid FROM \(table.name) WHERE rowid IN (SELECT value FROM json_each(?))"
        matchingOneSQL = "SELECT \(keyColumns) FROM \(table.name) NOT INDEXED WHERE rowid = ? AND (\(whereClause.sql))"
        recordOneSQL = "SELECT \(table.columnList), rowid FROM \(table.name) WHERE rowid = ?"
    }

    /// The first `limit` rows from the anchor.
    func first(_ limit: Int, in connection: SQLiteConnection) throws -> [RowKey] {
        let (condition, bindings) = whereClause
        let sql = "SELECT \(keyColumns) FROM \(table.name) WHERE \(condition) \(order) LIMIT ?"
        return try connection.query(sql, bindings + [.int(limit)], row: Self.key)
    }

    /// Every row from the anchor through `boundary`.
    func rows(through boundary: CollectionWindow.Boundary, in connection: SQLiteConnection) throws -> [RowKey] {
        var (condition, bindings) = whereClause
        if case .through(let key) = boundary {
            condition += " AND " + anchorOrder.condition(notAfter: key.value, id: key.id, bindings: &bindings)
        }
        return try connection.query("SELECT \(keyColumns) FROM \(table.name) WHERE \(condition) \(order)", bindings, row: Self.key)
    }

    /// Up to `limit` rows after `key` (all rows when `key` is nil), in anchor order.
    func rows(after key: RowKey?, limit: Int, in connection: SQLiteConnection) throws -> [RowKey] {
        var (condition, bindings) = whereClause
        if let key {
            condition += " AND " + anchorOrder.condition(after: key.value, id: key.id, bindings: &bindings)
        }
        let sql = "SELECT \(keyColumns) FROM \(table.name) WHERE \(condition) \(order) LIMIT ?"
        return try connection.query(sql, bindings + [.int(limit)], row: Self.key)
    }

    /// Every row after `key` (after none: from the anchor) through `boundary`, in anchor order.
    func rows(after key: RowKey?, through boundary: CollectionWindow.Boundary, in connection: SQLiteConnection) throws -> [RowKey] {
        let (condition, bindings) = range(after: key, through: boundary)
        return try connection.query("SELECT \(keyColumns) FROM \(table.name) WHERE \(condition) \(order)", bindings, row: Self.key)
    }

    /// The query's condition limited to the rows after `key` through `boundary`.
    func range(after key: RowKey?, through boundary: CollectionWindow.Boundary) -> (sql: String, bindings: [SQLiteValue]) {
        var (condition, bindings) = whereClause
        if let key {
            condition += " AND " + anchorOrder.condition(after: key.value, id: key.id, bindings: &bindings)
        }
        if case .through(let last) = boundary {
            condition += " AND " + anchorOrder.condition(notAfter: last.value, id: last.id, bindings: &bindings)
        }
        return (condition, bindings)
    }

    /// Stores a server page of the rows after `key` through `boundary`, requested after `mark`;
    /// see ``CacheTransaction/storeServerPage(_:of:after:through:provesRange:since:storing:)``.
    func storeServerPage(_ records: [Record], after key: RowKey?, through boundary: CollectionWindow.Boundary,
                         provesRange: Bool, since mark: WriteMark, in transaction: CacheTransaction) throws {
        let end: RowKey? = if case .through(let last) = boundary { last } else { nil }
        try transaction.storeServerPage(
            records, of: anchorOrder, after: key.map { ($0.value, $0.id) }, through: end.map { ($0.value, $0.id) },
            provesRange: provesRange, since: mark)
    }

    /// The key of a record in this query's order.
    func key(of record: Record) -> RowKey {
        let values = record.columnValues
        let index = table.columnIndex(query.sortColumn) ?? 0
        return RowKey(value: values[index], id: record.id, rowid: 0)
    }

    /// Those of `rowids` that match the query (boundary not applied), in no particular order.
    ///
    /// One lookup by rowid each, whatever the query: `NOT INDEXED` keeps SQLite from reading the
    /// rows through an index of the query's condition instead (every row of a channel, say, to
    /// keep the few touched), which made each refresh cost as much as the rows the condition
    /// matches.
    func matching(_ rowids: some Collection<Int64>, in connection: SQLiteConnection) throws -> [RowKey] {
        let statement = matchingStatement(rowids)
        return try connection.query(statement.sql, statement.bindings, row: Self.key)
    }

    /// The statement of ``matching(_:in:)`` for `rowids`, with its bindings.
    func matchingStatement(_ rowids: some Collection<Int64>) -> (sql: String, bindings: [SQLiteValue]) {
        let (sql, binding) = Self.byRowid(rowids, one: matchingOneSQL, many: matchingSQL)
        return (sql, [binding] + whereClause.bindings)
    }

    /// Of a read's two statements, the one for `rowids`, with the binding that names them: an
    /// integer for one rowid, a JSON array for any other count.
    private static func byRowid(_ rowids: some Collection<Int64>, one: String, many: String) -> (sql: String, binding: SQLiteValue) {
        if rowids.count == 1, let rowid = rowids.first { return (one, .integer(rowid)) }
        return (many, .text(jsonArray(rowids)))
    }

    /// The records with these rowids, by rowid; rows deleted meanwhile are missing.
    ///
    /// Each row goes straight into the dictionary: an array of `(rowid, record)` pairs first, and
    /// the capacity reserved for a few rows, made the runtime look up generic types (the pair's,
    /// the storage's) at each read, which perf found to be most of reading one record.
    func records(_ rowids: some Collection<Int64>, in connection: SQLiteConnection) throws -> [Int64: Record] {
        guard !rowids.isEmpty else { return [Int64: Record]() }
        let rowidColumn = table.columns.count
        let (sql, binding) = Self.byRowid(rowids, one: recordOneSQL, many: recordsSQL)
        let statement = try connection.statement(sql)
        try statement.bind([binding])
        defer { statement.reset() }
        // Not `[:]`: the literal makes the runtime look up the `(Int64, Record)` pair's type, behind
        // a lock, at each call.
        var result = [Int64: Record]()
        if rowids.count > 64 { result.reserveCapacity(rowids.count) }
        while try statement.step() {
            let row = statement.row
            result[row.int64(rowidColumn)] = try Record(row: row)
        }
        return result
    }

    /// The records of `rows`, by rowid, read by rowid and kept only where the id still agrees:
    /// a reader that sees newer commits than the window may find a rowid reused or a row gone.
    func records(of rows: [RowKey], in connection: SQLiteConnection) throws -> [Int64: Record] {
        var records = try records(rows.lazy.map(\.rowid), in: connection)
        for row in rows where records[row.rowid].map({ $0.id != row.id }) == true {
            records[row.rowid] = nil
        }
        return records
    }

    private static func key(_ row: SQLiteRow) -> RowKey {
        RowKey(value: row[1], id: row.string(2), rowid: row.int64(0))
    }

    private static func jsonArray(_ rowids: some Collection<Int64>) -> String {
        var text = "["
        text.reserveCapacity(rowids.count * 8 + 2)
        var first = true
        for rowid in rowids {
            if !first { text += "," }
            text += String(rowid)
            first = false
        }
        return text + "]"
    }
}
