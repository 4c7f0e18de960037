/// A model that the cache stores as a row of its own table.
///
/// Conform a model to it to make live objects and live collections of it. The table is declared
/// by ``table``; ``init(row:)`` reads a row selected with the table's columns in declaration
/// order, and ``columnValues`` gives the values to write in that same order. The first column
/// is always the text primary key `id`. ``SchemaRecord`` gives all three from one list of
/// columns; conform to `CacheRecord` directly to write them by hand:
///
/// ```swift
/// struct Note: CacheRecord {
///     var id: String
///     var body: String
///     static let table = RecordTable(name: "notes", columns: [.text("id"), .text("body")])
///     init(id: String, body: String) { self.id = id; self.body = body }
///     init(row: SQLiteRow) { id = row.string(0); body = row.string(1) }
///     var columnValues: [SQLiteValue] { [.text(id), .text(body)] }
/// }
/// ```
public protocol CacheRecord: Sendable, Equatable, Identifiable where ID == String {
    /// The table the records live in.
    static var table: RecordTable { get }

    /// Reads a record from a row whose columns are ``RecordTable/columns``, in order.
    init(row: SQLiteRow) throws

    /// The values of ``RecordTable/columns``, in order, starting with `id`.
    var columnValues: [SQLiteValue] { get }
}
