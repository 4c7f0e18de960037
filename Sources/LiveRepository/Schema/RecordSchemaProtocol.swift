/// What a ``SchemaRecord`` needs of its schema: the table, and the two ways between a row and a
/// record. ``RecordSchema`` is the implementation; the protocol names it without its columns'
/// types.
public protocol RecordSchemaProtocol<Record>: Sendable {
    /// The type of record the schema describes.
    associatedtype Record

    /// The table, its columns in the schema's order.
    var table: RecordTable { get }

    /// Reads a record from a row whose columns are the table's, in order.
    func record(from row: SQLiteRow) throws -> Record

    /// The values of the table's columns for `record`, in order.
    func values(of record: Record) -> [SQLiteValue]
}
