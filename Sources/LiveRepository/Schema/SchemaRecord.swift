/// A ``CacheRecord`` that declares its columns once, in a ``RecordSchema``, and gets
/// ``CacheRecord/table``, ``CacheRecord/init(row:)`` and ``CacheRecord/columnValues`` from it.
///
/// ```swift
/// struct Note: SchemaRecord {
///     var id: String
///     var body: String
///     static let schema = RecordSchema(
///         "notes", SchemaColumn("id", \Note.id), SchemaColumn("body", \Note.body),
///         make: Note.init(id:body:))
/// }
/// ```
public protocol SchemaRecord: CacheRecord {
    /// The type of ``schema``.
    associatedtype Schema: RecordSchemaProtocol where Schema.Record == Self

    /// The record's columns.
    static var schema: Schema { get }
}

extension SchemaRecord {
    /// The schema's table.
    public static var table: RecordTable { schema.table }

    /// Reads a record with the schema.
    public init(row: SQLiteRow) throws {
        self = try Self.schema.record(from: row)
    }

    /// The schema's values for this record.
    public var columnValues: [SQLiteValue] { Self.schema.values(of: self) }
}
