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
    private(set) var current: [(table: String, rowid: Int64, id: String)] = []
    private(set) var currentWholeTables: [String] = []

    init(connection: SQLiteConnection) { self.connection = connection }

    /// Inserts the record, or updates the stored one with the same `id` if any column differs.
    ///
    /// - Returns: whether the cache changed.
    @discardableResult
    public func upsert<Record: CacheRecord>(_ record: Record) throws -> Bool {
        let table = Record.table
        let values = record.columnValues
        // A new record (the usual case for real-time events) is a plain insert, twice as fast
        // as an upsert that returns its rowid; a stored one (or a constraint failure, which the
        // upsert then reports) takes the upsert, which changes the row only if a value differs.
        let statements = try upsertStatements(for: table)
        try statements.insert.bind(values)
        _ = try statements.insert.step()
        statements.insert.reset()
        if connection.changes == 1 {
            mark(table.name, rowid: connection.lastInsertRowID, id: record.id)
            return true
        }
        try statements.upsert.bind(values)
        defer { statements.upsert.reset() }
        guard try statements.upsert.step() else { return false }
        mark(table.name, rowid: statements.upsert.row.int64(0), id: record.id)
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
        try deleteRows(of: Record.table, where: "id = ?", [.text(id)]) > 0
    }

    /// The stored record with `id`, or nil.
    public func record<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        try Record.read(id: id, from: connection)
    }

    /// The stored records matching `query`, in its order, at most `limit` of them.
    public func records<Record: CacheRecord>(matching query: CacheQuery<Record>, limit: Int = .max) throws -> [Record] {
        try Record.read(query, limit: limit, from: connection)
    }

    /// Runs a statement that changes `table` in ways the typed methods cannot express.
    ///
    /// Every live collection over the table re-reads its window after the commit.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = [], touching table: String) throws {
        try connection.execute(sql, bindings)
        currentWholeTables.append(table)
    }

    /// Deletes the rows of `table` matching `condition`, records them as touched, and returns
    /// how many there were.
    @discardableResult
    func deleteRows(of table: RecordTable, where condition: String, _ bindings: [SQLiteValue]) throws -> Int {
        let sql = "DELETE FROM \(table.name) WHERE \(condition) RETURNING rowid, id"
        let deleted = try connection.query(sql, bindings, row: { ($0.int64(0), $0.string(1)) })
        for (rowid, id) in deleted { mark(table.name, rowid: rowid, id: id) }
        return deleted.count
    }

    private func mark(_ table: String, rowid: Int64, id: String) {
        current.append((table, rowid, id))
    }

    /// Runs one write, in a savepoint when `isolated`; its touched rows count only if it
    /// succeeds. Without a savepoint a failure leaves its partial changes: the caller must then
    /// roll back the whole transaction.
    func run(_ body: (CacheTransaction) throws -> Void, isolated: Bool = true) throws {
        current.removeAll(keepingCapacity: true)
        currentWholeTables.removeAll()
        do {
            if isolated {
                try connection.transaction { try body(self) }
            } else {
                try body(self)
            }
        } catch {
            current.removeAll(keepingCapacity: true)
            currentWholeTables.removeAll()
            throw error
        }
        for entry in current {
            Self.record(entry.rowid, entry.id, in: &change[entry.table, default: TableChange()])
        }
        for table in currentWholeTables { change[table, default: TableChange()].isWholeTable = true }
    }

    private static func record(_ rowid: Int64, _ id: String, in tableChange: inout TableChange) {
        tableChange.rowids.insert(rowid)
        tableChange.ids.insert(id)
    }

    /// The upsert statement of each table this transaction wrote, found once: a batch of
    /// real-time events upserts thousands of records of the same table.
    private var upsertStatements: [String: (insert: SQLiteStatement, upsert: SQLiteStatement)] = [:]

    private func upsertStatements(for table: RecordTable) throws -> (insert: SQLiteStatement, upsert: SQLiteStatement) {
        if let statements = upsertStatements[table.name] { return statements }
        let statements = (insert: try connection.statement(table.insertSQL), upsert: try connection.statement(table.upsertSQL))
        upsertStatements[table.name] = statements
        return statements
    }
}
