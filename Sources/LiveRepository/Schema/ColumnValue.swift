/// A Swift type that a cache column stores: its SQLite type, and how a value is read from a
/// row and written back.
///
/// `String`, `Int`, `Int64`, `Double`, `Bool` and `Optional` of any of them conform; so can an
/// enumeration with `String` raw values, by declaring the conformance alone:
///
/// ```swift
/// enum Mood: String { case calm, busy }
/// extension Mood: ColumnValue {}
/// ```
public protocol ColumnValue: Sendable {
    /// The column's SQLite type.
    static var columnType: RecordColumn.ColumnType { get }
    /// Whether the column accepts `NULL`; false unless the type is an `Optional`.
    static var isNullable: Bool { get }

    /// Reads the value in `column` of `row`.
    ///
    /// - Throws: ``SQLiteError`` when the stored value is not one of this type's, such as an
    ///   enumeration case that a newer version of the app wrote. `name` is the column's name,
    ///   for the message.
    static func read(_ row: SQLiteRow, column: Int, name: String) throws -> Self

    /// The value to store.
    var columnValue: SQLiteValue { get }
}

extension ColumnValue {
    /// False: only `Optional` columns accept `NULL`.
    public static var isNullable: Bool { false }
}

extension String: ColumnValue {
    /// Text.
    public static var columnType: RecordColumn.ColumnType { .text }
    /// Reads the text in `column`.
    public static func read(_ row: SQLiteRow, column: Int, name: String) -> String { row.string(column) }
    /// The text.
    public var columnValue: SQLiteValue { .text(self) }
}

extension Int: ColumnValue {
    /// An integer.
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads the integer in `column`.
    public static func read(_ row: SQLiteRow, column: Int, name: String) -> Int { row.int(column) }
    /// The integer.
    public var columnValue: SQLiteValue { .int(self) }
}

extension Int64: ColumnValue {
    /// An integer.
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads the integer in `column`.
    public static func read(_ row: SQLiteRow, column: Int, name: String) -> Int64 { row.int64(column) }
    /// The integer.
    public var columnValue: SQLiteValue { .integer(self) }
}

extension Double: ColumnValue {
    /// A real number.
    public static var columnType: RecordColumn.ColumnType { .real }
    /// Reads the number in `column`.
    public static func read(_ row: SQLiteRow, column: Int, name: String) -> Double { row.double(column) }
    /// The number.
    public var columnValue: SQLiteValue { .real(self) }
}

extension Bool: ColumnValue {
    /// An integer, 0 or 1.
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads `column` as true when it is not 0.
    public static func read(_ row: SQLiteRow, column: Int, name: String) -> Bool { row.bool(column) }
    /// 1 or 0.
    public var columnValue: SQLiteValue { .bool(self) }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    /// The wrapped type's.
    public static var columnType: RecordColumn.ColumnType { Wrapped.columnType }
    /// True: `nil` is stored as `NULL`.
    public static var isNullable: Bool { true }
    /// Nil for `NULL`, otherwise the wrapped type's value.
    public static func read(_ row: SQLiteRow, column: Int, name: String) throws -> Wrapped? {
        row.isNull(column) ? nil : try Wrapped.read(row, column: column, name: name)
    }
    /// `NULL` for nil, otherwise the wrapped value's.
    public var columnValue: SQLiteValue { self?.columnValue ?? .null }
}

extension ColumnValue where Self: RawRepresentable, RawValue == String {
    /// Text: the raw value.
    public static var columnType: RecordColumn.ColumnType { .text }

    /// Reads the case whose raw value is the text in `column`.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) when the text is not one of the cases.
    public static func read(_ row: SQLiteRow, column: Int, name: String) throws -> Self {
        let raw = row.string(column)
        guard let value = Self(rawValue: raw) else {
            throw SQLiteError.mismatch("unknown \(Self.self) value '\(raw)' in column \(name)")
        }
        return value
    }

    /// The raw value.
    public var columnValue: SQLiteValue { .text(rawValue) }
}
