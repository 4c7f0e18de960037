import Foundation

/// One column of a ``RecordSchema``: its name and type, and how the record's value is read from
/// a row and written to it.
///
/// Name a property with a key path; its type says the column's type (see ``ColumnValue``):
///
/// ```swift
/// SchemaColumn("text", \Message.text)            // TEXT NOT NULL
/// SchemaColumn("editedAt", \Message.editedAt)    // REAL, NULL for nil
/// SchemaColumn(json: "metaArrays", \Message.metaArrays, empty: [:])
/// ```
public struct SchemaColumn<Record, Value>: Sendable {
    /// The column's name.
    public let name: String
    /// The column's SQLite type.
    public let type: RecordColumn.ColumnType
    /// Whether the column accepts `NULL`.
    public let isNullable: Bool
    let value: @Sendable (Record) -> Value
    let encode: @Sendable (Value) -> SQLiteValue
    let decode: @Sendable (SQLiteRow, Int, String) throws -> Value

    /// A column that stores the record's `value` as its type does (see ``ColumnValue``).
    public init(_ name: String, _ value: @escaping @Sendable (Record) -> Value) where Value: ColumnValue {
        self.name = name
        type = Value.columnType
        isNullable = Value.isNullable
        self.value = value
        encode = { $0.columnValue }
        decode = { row, column, name in try Value.read(row, column: column, name: name) }
    }

    /// A text column that stores a collection as JSON, with sorted keys so that equal values
    /// store equal text. The empty collection is `empty` (`[]` or `[:]`), stored as `[]` or `{}`
    /// and read back without a decoder.
    public init(json name: String, _ value: @escaping @Sendable (Record) -> Value, empty: Value)
    where Value: Codable & Collection & Sendable {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // The empty array or dictionary always encodes.
        let emptyText = (try? encoder.encode(empty)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        self.name = name
        type = .text
        isNullable = false
        self.value = value
        encode = { collection in
            if collection.isEmpty { return .text(emptyText) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            // A collection of strings or of plain structs always encodes.
            let data = (try? encoder.encode(collection)) ?? Data(emptyText.utf8)
            return .text(String(decoding: data, as: UTF8.self))
        }
        decode = { row, column, name in
            let text = row.string(column)
            if text == "{}" || text == "[]" || text.isEmpty { return empty }
            do {
                return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
            } catch {
                throw SQLiteError.mismatch("column \(name) does not hold \(Value.self) as JSON: \(error)")
            }
        }
    }

    /// The column as a table describes it.
    var tableColumn: RecordColumn { RecordColumn(name, type, nullable: isNullable) }
}
