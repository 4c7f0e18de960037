/// A record's table as one list of columns, from which its ``RecordTable``, its row decoding
/// and its column values all come: each column is named once, beside the property it stores.
///
/// The columns are listed in the order of the parameters of `make`, the record's initializer,
/// which the compiler checks for types. (Two columns of one type listed in swapped order would
/// compile; a round trip of a record whose values all differ finds that.)
///
/// ```swift
/// struct Note: SchemaRecord {
///     var id: String
///     var body: String
///     var pinned: Bool
///
///     static let schema = RecordSchema(
///         "notes", indexes: [["pinned"]],
///         SchemaColumn("id", \Note.id),
///         SchemaColumn("body", \Note.body),
///         SchemaColumn("pinned", \Note.pinned),
///         make: Note.init(id:body:pinned:))
/// }
/// ```
public struct RecordSchema<Record, each Value>: RecordSchemaProtocol {
    /// The table, its columns in the schema's order.
    public let table: RecordTable
    private let columns: (repeat SchemaColumn<Record, each Value>)
    private let make: @Sendable (repeat each Value) throws -> Record

    /// Creates the schema of the table `name` with `columns`, in the order of `make`'s
    /// parameters; the first is the text primary key `id`.
    public init(
        _ name: String, indexes: [[String]] = [], _ columns: repeat SchemaColumn<Record, each Value>,
        make: @escaping @Sendable (repeat each Value) throws -> Record
    ) {
        var tableColumns: [RecordColumn] = []
        for column in repeat each columns { tableColumns.append(column.tableColumn) }
        table = RecordTable(name: name, columns: tableColumns, indexes: indexes)
        self.columns = (repeat each columns)
        self.make = make
    }

    /// Reads a record from a row whose columns are the table's, in order.
    public func record(from row: SQLiteRow) throws -> Record {
        var index = 0
        func next<Stored>(_ column: SchemaColumn<Record, Stored>) throws -> Stored {
            defer { index += 1 }
            return try column.decode(row, index, column.name)
        }
        return try make(repeat try next(each columns))
    }

    /// The values of the table's columns for `record`, in order.
    public func values(of record: Record) -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(table.columns.count)
        for column in repeat each columns { values.append(column.encode(column.value(record))) }
        return values
    }
}
