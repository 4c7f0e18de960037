/// The SQLite table of a ``CacheRecord`` type: its name, columns and indexes.
///
/// The first column must be the record's text primary key, named `id`.
/// ``createStatements`` gives the SQL to create it, for use in a ``SQLiteMigration``.
public struct RecordTable: Sendable, Hashable {
    /// The table's name.
    public let name: String
    /// The columns, in the order ``CacheRecord/init(row:)`` reads them.
    public let columns: [RecordColumn]
    /// Indexes to create, each a list of column names; add the columns collections filter and sort by.
    public let indexes: [[String]]

    /// Creates a table description.
    public init(name: String, columns: [RecordColumn], indexes: [[String]] = []) {
        precondition(columns.first?.name == "id" && columns.first?.type == .text,
                     "the first column of \(name) must be the text primary key `id`")
        self.name = name
        self.columns = columns
        self.indexes = indexes
        columnList = columns.map(\.name).joined(separator: ", ")
        insertSQL = "INSERT OR IGNORE INTO \(name) (\(columnList)) VALUES (\(Self.placeholders(columns.count)))"
        upsertSQL = Self.upsertSQL(name: name, columns: columns.map(\.name), columnList: columnList)
    }

    /// The column names, comma-separated, in declaration order.
    ///
    /// It and the statements below are written once, here: written at each write, they were
    /// most of the time an upsert of one record took (measured on Linux).
    public let columnList: String
    /// A plain insert of a row, ignored when its id is stored: the usual case of a new record.
    let insertSQL: String
    /// `INSERT ... ON CONFLICT DO UPDATE ... WHERE <some column differs> RETURNING rowid`: a row
    /// comes back only when the cache changed.
    let upsertSQL: String

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    private static func upsertSQL(name: String, columns names: [String], columnList: String) -> String {
        let updated = names.dropFirst()
        guard !updated.isEmpty else {
            return "INSERT INTO \(name) (id) VALUES (?) ON CONFLICT(id) DO NOTHING RETURNING rowid"
        }
        let assignments = updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let current = updated.joined(separator: ", ")
        let incoming = updated.map { "excluded.\($0)" }.joined(separator: ", ")
        let differs = updated.count == 1 ? "\(current) IS NOT \(incoming)" : "(\(current)) IS NOT (\(incoming))"
        return "INSERT INTO \(name) (\(columnList)) VALUES (\(placeholders(names.count))) "
            + "ON CONFLICT(id) DO UPDATE SET \(assignments) WHERE \(differs) RETURNING rowid"
    }

    /// `CREATE TABLE` and `CREATE INDEX` statements for the table.
    public var createStatements: String {
        let definitions = columns.map { column in
            var text = "\(column.name) \(column.type.rawValue)"
            if column.name == "id" { text += " PRIMARY KEY NOT NULL" }
            else if !column.isNullable { text += " NOT NULL" }
            return text
        }
        var sql = "CREATE TABLE \(name) (\(definitions.joined(separator: ", ")));\n"
        for index in indexes {
            sql += "CREATE INDEX \(name)_\(index.joined(separator: "_")) ON \(name) (\(index.joined(separator: ", ")));\n"
        }
        return sql
    }

    /// The index of a column by name, or nil.
    public func columnIndex(_ name: String) -> Int? { columns.firstIndex { $0.name == name } }
}

extension RecordTable {
    /// Whether column `index` exists and has `type` and, exactly, `nullable`; what
    /// ``ColumnReader`` and ``ColumnWriter`` check.
    @inlinable
    func declares(_ index: Int, _ type: RecordColumn.ColumnType, nullable: Bool) -> Bool {
        index < columns.count && columns[index].type == type && columns[index].isNullable == nullable
    }

    /// The message of a failed ``declares(_:_:nullable:)``: the column as declared, and `use`.
    @usableFromInline
    func mismatch(_ index: Int, _ use: @autoclosure () -> String) -> String {
        guard index < columns.count else { return "\(name) has \(columns.count) columns; \(use()) one more" }
        let column = columns[index]
        return "\(name).\(column.name) is declared \(column.type.rawValue)\(column.isNullable ? "" : " NOT NULL") but \(use())"
    }
}
