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
    ///   enumeration case that a newer version of the app wrote (``ColumnReader`` adds the
    ///   column's name to the message).
    static func read(_ row: SQLiteRow, column: Int) throws -> Self

    /// The value to store.
    var columnValue: SQLiteValue { get }
}

extension ColumnValue {
    /// False: only `Optional` columns accept `NULL`.
    @inlinable
    public static var isNullable: Bool { false }
}

extension String: ColumnValue {
    /// Text.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .text }
    /// Reads the text in `column`.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) -> String { row.string(column) }
    /// The text.
    @inlinable
    public var columnValue: SQLiteValue { .text(self) }
}

extension Int: ColumnValue {
    /// An integer.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads the integer in `column`.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) -> Int { row.int(column) }
    /// The integer.
    @inlinable
    public var columnValue: SQLiteValue { .int(self) }
}

extension Int64: ColumnValue {
    /// An integer.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads the integer in `column`.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) -> Int64 { row.int64(column) }
    /// The integer.
    @inlinable
    public var columnValue: SQLiteValue { .integer(self) }
}

extension Double: ColumnValue {
    /// A real number.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .real }
    /// Reads the number in `column`.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) -> Double { row.double(column) }
    /// The number.
    @inlinable
    public var columnValue: SQLiteValue { .real(self) }
}

extension Bool: ColumnValue {
    /// An integer, 0 or 1.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .integer }
    /// Reads `column` as true when it is not 0.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) -> Bool { row.bool(column) }
    /// 1 or 0.
    @inlinable
    public var columnValue: SQLiteValue { .bool(self) }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    /// The wrapped type's.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { Wrapped.columnType }
    /// True: `nil` is stored as `NULL`.
    @inlinable
    public static var isNullable: Bool { true }
    /// Nil for `NULL`, otherwise the wrapped type's value.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) throws -> Wrapped? {
        row.isNull(column) ? nil : try Wrapped.read(row, column: column)
    }
    /// `NULL` for nil, otherwise the wrapped value's.
    @inlinable
    public var columnValue: SQLiteValue { self?.columnValue ?? .null }
}

extension ColumnValue where Self: RawRepresentable, RawValue == String {
    /// Text: the raw value.
    @inlinable
    public static var columnType: RecordColumn.ColumnType { .text }

    /// Reads the case whose raw value is the text in `column`.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) when the text is not one of the cases.
    @inlinable
    public static func read(_ row: SQLiteRow, column: Int) throws -> Self {
        let raw = row.string(column)
        guard let value = Self(rawValue: raw) else {
            throw SQLiteError.mismatch("unknown \(Self.self) value '\(raw)'")
        }
        return value
    }

    /// The raw value.
    @inlinable
    public var columnValue: SQLiteValue { .text(rawValue) }
}
