import Foundation

/// Collects a record's column values in the order of its ``RecordTable``, so that
/// ``CacheRecord/columnValues`` follows the one list of columns the ``CacheRecord/table``
/// declares.
///
/// In a debug build, each value appended takes the next column and traps when its type is not
/// the column's declared type, optional for a nullable column and only for one, and
/// ``finish()`` traps when a column was left out; a release build skips the checks:
///
/// ```swift
/// var columnValues: [SQLiteValue] {
///     var values = ColumnWriter(Self.table)
///     values.append(id)
///     values.append(body)
///     values.appendJSON(tags, empty: "[]")
///     return values.finish()
/// }
/// ```
public struct ColumnWriter {
    @usableFromInline let table: RecordTable
    @usableFromInline var values: [SQLiteValue]

    /// A writer of `table`'s values.
    @inlinable
    public init(_ table: RecordTable) {
        self.table = table
        values = []
        values.reserveCapacity(table.columns.count)
    }

    /// Appends `value` as the next column's (see ``ColumnValue``).
    @inlinable
    public mutating func append<Value: ColumnValue>(_ value: Value) {
        check(Value.columnType, nullable: Value.isNullable, writing: Value.self)
        values.append(value.columnValue)
    }

    /// Appends a collection as the next column's, a text column: JSON with sorted keys, so that
    /// equal values store equal text; the empty collection is stored as `empty` (`[]` or `{}`).
    @inlinable
    public mutating func appendJSON<Value: Encodable & Collection>(_ value: Value, empty: String) {
        check(.text, nullable: false, writing: Value.self)
        values.append(value.isEmpty ? .text(empty) : Self.encodeJSON(value, empty: empty))
    }

    /// The values, one for each column of the table, in its order; traps, in a debug build,
    /// when one is missing.
    @inlinable
    public func finish() -> [SQLiteValue] {
        assert(values.count == table.columns.count,
               "\(table.name): columnValues gives \(values.count) of the table's \(table.columns.count) columns")
        return values
    }

    /// Checks, in a debug build, the next column against the type written.
    @inlinable
    func check<Value>(_ type: RecordColumn.ColumnType, nullable: Bool, writing _: Value.Type) {
        assert(table.declares(values.count, type, nullable: nullable),
               table.mismatch(values.count, "columnValues gives it \(Value.self)"))
    }

    @usableFromInline
    static func encodeJSON<Value: Encodable>(_ value: Value, empty: String) -> SQLiteValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A collection of strings or of plain structs always encodes.
        let data = (try? encoder.encode(value)) ?? Data(empty.utf8)
        return .text(String(decoding: data, as: UTF8.self))
    }
}
