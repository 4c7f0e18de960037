/// A model that the cache stores as a row of its own table.
///
/// Conform a model to it to make live objects and live collections of it. ``table`` is the one
/// list of the model's columns; ``init(row:)`` reads a row selected with them in that order,
/// and ``columnValues`` gives the values to write in that same order. The first column is
/// always the text primary key `id`. Write both with ``ColumnReader`` and ``ColumnWriter``,
/// which check, in a debug build, each property's type against its column and that no column
/// is left out:
///
/// ```swift
/// struct Note: CacheRecord {
///     var id: String
///     var body: String
///     static let table = RecordTable(name: "notes", columns: [.text("id"), .text("body")])
///     init(id: String, body: String) { self.id = id; self.body = body }
///     init(row: SQLiteRow) throws {
///         var columns = ColumnReader(row, of: Self.table)
///         id = try columns.next()
///         body = try columns.next()
///         columns.finish()
///     }
///     var columnValues: [SQLiteValue] {
///         var values = ColumnWriter(Self.table)
///         values.append(id)
///         values.append(body)
///         return values.finish()
///     }
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
