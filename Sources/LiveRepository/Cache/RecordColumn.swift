/// One column of a ``RecordTable``.
public struct RecordColumn: Sendable, Hashable {
    /// A column's SQLite type affinity.
    public enum ColumnType: String, Sendable, Hashable {
        /// Signed integers and booleans.
        case integer = "INTEGER"
        /// Floating point numbers, such as timestamps in seconds.
        case real = "REAL"
        /// UTF-8 text.
        case text = "TEXT"
        /// Bytes.
        case blob = "BLOB"
    }

    /// The column's name.
    public let name: String
    /// The column's type.
    public let type: ColumnType
    /// Whether the column accepts `NULL`.
    public let isNullable: Bool

    /// Creates a column.
    public init(_ name: String, _ type: ColumnType, nullable: Bool = false) {
        self.name = name
        self.type = type
        self.isNullable = nullable
    }

    /// A text column.
    public static func text(_ name: String, nullable: Bool = false) -> RecordColumn { .init(name, .text, nullable: nullable) }
    /// An integer column.
    public static func integer(_ name: String, nullable: Bool = false) -> RecordColumn { .init(name, .integer, nullable: nullable) }
    /// A real column.
    public static func real(_ name: String, nullable: Bool = false) -> RecordColumn { .init(name, .real, nullable: nullable) }
    /// A blob column.
    public static func blob(_ name: String, nullable: Bool = false) -> RecordColumn { .init(name, .blob, nullable: nullable) }
}
