/// The cache inside one write: read and change records; observers hear after the commit.
///
/// You get one from ``LiveStore/write(_:)``. It is valid only inside that block, on the store's
/// queue. Every change is recorded, and after the transaction commits, exactly the live objects
/// and collections that show a touched row (or whose query a new row now matches) are told.
/// A write that changes nothing (an upsert of an identical record) touches nothing.
public final class CacheTransaction {
    /// The connection, for statements the typed methods do not cover. Prefer ``execute(_:_:touching:)``
    /// for writes, so that observers hear about them.
    public let connection: SQLiteConnection
    private(set) var change: StoreChange = [:]
    /// Rows touched by the write in progress: they join ``change`` only if that write succeeds.
    private var current: [(table: String, rowid: Int64, id: String)] = []
    private var currentWholeTables: [String] = []

    init(connection: SQLiteConnection) { self.connection = connection }

    /// Inserts the record, or updates the stored one with the same `id` if any column differs.
    ///
    /// - Returns: whether the cache changed.
    @discardableResult
    public func upsert<Record: CacheRecord>(_ record: Record) throws -> Bool {
        let table = Record.table
        let sql = upsertSQL(for: table)
        guard let rowid = try connection.queryFirst(sql, record.columnValues, row: { $0.int64(0) }) else {
            return false
        }
        mark(table.name, rowid: rowid, id: record.id)
        return true
    }

    /// Upserts every record; returns how many changed the cache.
    @discardableResult
    public func upsert<Records: Sequence>(contentsOf records: Records) throws -> Int where Records.Element: CacheRecord {
        var changed = 0
        for record in records where try upsert(record) { changed += 1 }
        return changed
    }

    /// Deletes the record with `id`, if stored.
    ///
    /// - Returns: whether a row was deleted.
    @discardableResult
    public func delete<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Bool {
        let table = Record.table
        let sql = "DELETE FROM \(table.name) WHERE id = ? RETURNING rowid"
        guard let rowid = try connection.queryFirst(sql, [.text(id)], row: { $0.int64(0) }) else { return false }
        mark(table.name, rowid: rowid, id: id)
        return true
    }

    /// The stored record with `id`, or nil.
    public func record<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        let table = Record.table
        return try connection.queryFirst("SELECT \(table.columnList) FROM \(table.name) WHERE id = ?", [.text(id)]) {
            try Record(row: $0)
        }
    }

    /// The stored records matching `query`, in its order, at most `limit` of them.
    public func records<Record: CacheRecord>(matching query: CacheQuery<Record>, limit: Int = .max) throws -> [Record] {
        let table = Record.table
        let (condition, bindings) = query.whereClause
        let direction = query.ascending ? "ASC" : "DESC"
        let sql = "SELECT \(table.columnList) FROM \(table.name) WHERE \(condition) "
            + "ORDER BY \(query.sortColumn) \(direction), id \(direction) LIMIT \(max(0, min(limit, Int(Int64.max))))"
        return try connection.query(sql, bindings) { try Record(row: $0) }
    }

    /// Runs a statement that changes `table` in ways the typed methods cannot express.
    ///
    /// Every live collection over the table re-reads its window after the commit.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = [], touching table: String) throws {
        try connection.execute(sql, bindings)
        currentWholeTables.append(table)
    }

    /// Deletes the rows of `table` matching `condition` and records them as touched.
    func deleteRows(of table: RecordTable, where condition: String, _ bindings: [SQLiteValue]) throws {
        let sql = "DELETE FROM \(table.name) WHERE \(condition) RETURNING rowid, id"
        for (rowid, id) in try connection.query(sql, bindings, row: { ($0.int64(0), $0.string(1)) }) {
            mark(table.name, rowid: rowid, id: id)
        }
    }

    private func mark(_ table: String, rowid: Int64, id: String) {
        current.append((table, rowid, id))
    }

    /// Runs one write in a savepoint; its touched rows count only if it succeeds.
    func run(_ body: (CacheTransaction) throws -> Void) throws {
        current.removeAll(keepingCapacity: true)
        currentWholeTables.removeAll()
        do {
            try connection.transaction { try body(self) }
        } catch {
            current.removeAll(keepingCapacity: true)
            currentWholeTables.removeAll()
            throw error
        }
        for entry in current {
            change[entry.table, default: TableChange()].rowids.insert(entry.rowid)
            change[entry.table, default: TableChange()].ids.insert(entry.id)
        }
        for table in currentWholeTables { change[table, default: TableChange()].isWholeTable = true }
    }

    /// The upsert statement of each table this transaction wrote, built once: a batch of real-time
    /// events upserts thousands of records of the same table.
    private var upsertStatements: [String: String] = [:]

    private func upsertSQL(for table: RecordTable) -> String {
        if let sql = upsertStatements[table.name] { return sql }
        let sql = Self.upsertSQL(for: table)
        upsertStatements[table.name] = sql
        return sql
    }

    /// `INSERT ... ON CONFLICT DO UPDATE ... WHERE <some column differs> RETURNING rowid`: a row
    /// comes back only when the cache changed.
    static func upsertSQL(for table: RecordTable) -> String {
        let names = table.columns.map(\.name)
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let updated = names.dropFirst()
        guard !updated.isEmpty else {
            return "INSERT INTO \(table.name) (id) VALUES (?) ON CONFLICT(id) DO NOTHING RETURNING rowid"
        }
        let assignments = updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let current = updated.joined(separator: ", ")
        let incoming = updated.map { "excluded.\($0)" }.joined(separator: ", ")
        let differs = updated.count == 1 ? "\(current) IS NOT \(incoming)" : "(\(current)) IS NOT (\(incoming))"
        return "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(placeholders)) "
            + "ON CONFLICT(id) DO UPDATE SET \(assignments) WHERE \(differs) RETURNING rowid"
    }
}
