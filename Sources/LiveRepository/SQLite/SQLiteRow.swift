import CSQLite

/// The current row of a running ``SQLiteStatement``.
///
/// A row is a view, not a copy: read its columns inside the block that receives it. Columns
/// are numbered from 0 in the order of the `SELECT`.
public struct SQLiteRow {
    let handle: OpaquePointer

    /// The number of columns in the row.
    public var count: Int { Int(sqlite3_column_count(handle)) }

    /// Whether the column holds SQL `NULL`.
    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    /// The column as an integer; `NULL` reads as 0.
    public func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }

    /// The column as an `Int`; `NULL` reads as 0.
    public func int(_ column: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(column))) }

    /// The column as a `Bool`: any non-zero integer is `true`.
    public func bool(_ column: Int) -> Bool { sqlite3_column_int64(handle, Int32(column)) != 0 }

    /// The column as a double; `NULL` reads as 0.
    public func double(_ column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }

    /// The column as text; `NULL` reads as the empty string.
    public func string(_ column: Int) -> String {
        guard let text = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let length = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }

    /// The column as text, or nil for `NULL`.
    public func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }

    /// The column as a double, or nil for `NULL`.
    public func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as an integer, or nil for `NULL`.
    public func optionalInt(_ column: Int) -> Int? { isNull(column) ? nil : int(column) }

    /// The column as bytes; `NULL` reads as no bytes.
    public func bytes(_ column: Int) -> [UInt8] {
        let length = Int(sqlite3_column_bytes(handle, Int32(column)))
        guard length > 0, let pointer = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// The column as a ``SQLiteValue`` of the storage class SQLite holds it in.
    public subscript(column: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(string(column))
        case SQLITE_BLOB: .blob(bytes(column))
        default: .null
        }
    }
}
