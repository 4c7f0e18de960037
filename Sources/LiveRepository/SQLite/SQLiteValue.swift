import Foundation

/// A value stored in or read from a SQLite column: one of SQLite's five storage classes.
///
/// Bind parameters and read columns with it when a typed accessor of ``SQLiteRow`` does not fit.
/// Literals build it directly: `let values: [SQLiteValue] = ["abc", 42, 1.5, nil]`.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision floating point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByNilLiteral {
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    /// Creates an ``integer(_:)`` value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    /// Creates a ``real(_:)`` value.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    /// Creates a ``text(_:)`` value.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// Creates an ``integer(_:)`` value: 1 for `true`, 0 for `false`, as SQLite stores booleans.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue {
    /// An integer value from a Swift `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    /// An integer value from a Swift `Bool`: 1 or 0.
    public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }

    /// Text for a non-nil string, ``null`` for nil.
    public static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }

    /// A real value for a non-nil double, ``null`` for nil.
    public static func optional(_ value: Double?) -> SQLiteValue { value.map(SQLiteValue.real) ?? .null }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value as SQL would print it, for messages and debugging.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
