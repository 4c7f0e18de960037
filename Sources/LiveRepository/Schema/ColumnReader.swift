import Foundation

/// Reads a row of a ``RecordTable`` column by column, in the table's order, so that a record's
/// ``CacheRecord/init(row:)`` follows the one list of columns its ``CacheRecord/table`` declares.
///
/// In a debug build, each read takes the next column and traps when the type read is not the
/// column's declared type, optional for a nullable column and only for one, and ``finish()``
/// traps when a column was left unread: a mistake in the order of the reads stops the first
/// test that reads the record. A decoding error names the column:
///
/// ```swift
/// init(row: SQLiteRow) throws {
///     var columns = ColumnReader(row, of: Self.table)
///     id = try columns.next()
///     body = try columns.next()
///     tags = try columns.nextJSON(empty: [])
///     columns.finish()
/// }
/// ```
///
/// A release build skips the checks: the reads are then as fast as ``SQLiteRow``'s own, which
/// opening a collection from the cache relies on.
public struct ColumnReader {
    @usableFromInline let row: SQLiteRow
    @usableFromInline let table: RecordTable
    @usableFromInline var index = 0

    /// A reader of `row`, selected with `table`'s columns in order (``RecordTable/columnList``).
    @inlinable
    public init(_ row: SQLiteRow, of table: RecordTable) {
        self.row = row
        self.table = table
    }

    /// Reads the next column as `Value` (see ``ColumnValue``).
    ///
    /// - Throws: ``SQLiteError`` when the stored value is not one of `Value`'s, such as an
    ///   enumeration case that a newer version of the app wrote; the message names the column.
    @inlinable
    public mutating func next<Value: ColumnValue>(_: Value.Type = Value.self) throws -> Value {
        let column = take(Value.columnType, nullable: Value.isNullable, reading: Value.self)
        do {
            return try Value.read(row, column: column)
        } catch {
            throw named(error, column: column)
        }
    }

    /// Reads the next column, a text column holding a collection as JSON; `empty` stands for the
    /// empty collection, stored as `[]` or `{}` (either is accepted, as is empty text) and read
    /// without a decoder.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) naming the column when its text is not
    ///   `Value` as JSON.
    @inlinable
    public mutating func nextJSON<Value: Decodable & Collection>(empty: Value) throws -> Value {
        let column = take(.text, nullable: false, reading: Value.self)
        let text = row.string(column)
        if text == "{}" || text == "[]" || text.isEmpty { return empty }
        return try decodeJSON(text, column: column)
    }

    /// Traps, in a debug build, unless every column of the table was read.
    @inlinable
    public func finish() {
        assert(index == table.columns.count,
               "\(table.name): init(row:) read \(index) of the table's \(table.columns.count) columns")
    }

    /// Checks, in a debug build, the next column against the type read, and returns its index.
    @inlinable
    mutating func take<Value>(_ type: RecordColumn.ColumnType, nullable: Bool, reading _: Value.Type) -> Int {
        let column = index
        assert(table.declares(column, type, nullable: nullable),
               table.mismatch(column, "init(row:) reads it as \(Value.self)"))
        index = column + 1
        return column
    }

    @usableFromInline
    func named(_ error: any Error, column: Int) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        return SQLiteError(
            code: error.extendedCode, message: "\(error.message) in column \(table.columns[column].name)", sql: error.sql,
            path: error.path)
    }

    @usableFromInline
    func decodeJSON<Value: Decodable>(_ text: String, column: Int) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw SQLiteError.mismatch("column \(table.columns[column].name) does not hold \(Value.self) as JSON: \(error)")
        }
    }
}
