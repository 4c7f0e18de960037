import LiveRepository
import NIOCore
import PostgresNIO

/// The conversions between SQLite's values (what records are written as) and PostgreSQL's.
///
/// Records keep SQLite's column types: INTEGER as `BIGINT`, REAL as `DOUBLE PRECISION`, TEXT
/// as `TEXT COLLATE "C"` (bytewise, as SQLite compares it) and BLOB as `BYTEA`.
enum PostgresValues {
    /// Binds `values` in order, as `$1`, `$2`...
    static func bindings(_ values: [SQLiteValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return bindings
    }

    /// A row's cells as SQLite values.
    static func values(of row: PostgresRow) throws -> [SQLiteValue] {
        try row.map(value(of:))
    }

    /// A cell as a SQLite value.
    static func value(of cell: PostgresCell) throws -> SQLiteValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8: return .integer(try cell.decode(Int64.self))
        case .int4: return .integer(Int64(try cell.decode(Int32.self)))
        case .int2: return .integer(Int64(try cell.decode(Int16.self)))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float8: return .real(try cell.decode(Double.self))
        case .float4: return .real(Double(try cell.decode(Float.self)))
        case .text, .varchar, .name: return .text(try cell.decode(String.self))
        case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
        default:
            throw PostgresStoreError.database("column \(cell.columnName) has a type the store does not read (\(cell.dataType))")
        }
    }

    /// The PostgreSQL type of a record column.
    static func type(of column: RecordColumn) -> String {
        switch column.type {
        case .integer: "BIGINT"
        case .real: "DOUBLE PRECISION"
        case .text: "TEXT COLLATE \"C\""
        case .blob: "BYTEA"
        }
    }
}
