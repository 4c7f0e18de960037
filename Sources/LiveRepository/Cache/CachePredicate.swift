/// One condition of a ``CacheQuery``, on one column.
public enum CachePredicate: Sendable, Hashable {
    /// The column equals the value (`NULL` never equals anything; use ``isNull(_:)``).
    case equals(String, SQLiteValue)
    /// The column differs from the value.
    case notEquals(String, SQLiteValue)
    /// The column equals one of the values.
    case oneOf(String, [SQLiteValue])
    /// The column is less than the value.
    case lessThan(String, SQLiteValue)
    /// The column is greater than the value.
    case greaterThan(String, SQLiteValue)
    /// The column is `NULL`.
    case isNull(String)
    /// The column is not `NULL`.
    case isNotNull(String)

    /// The column the condition is on.
    public var column: String {
        switch self {
        case .equals(let column, _), .notEquals(let column, _), .oneOf(let column, _),
             .lessThan(let column, _), .greaterThan(let column, _), .isNull(let column), .isNotNull(let column):
            column
        }
    }

    func sql(appendingTo bindings: inout [SQLiteValue]) -> String {
        switch self {
        case .equals(let column, let value):
            bindings.append(value)
            return "\(column) = ?"
        case .notEquals(let column, let value):
            bindings.append(value)
            return "\(column) IS NOT ?"
        case .oneOf(let column, let values):
            guard !values.isEmpty else { return "0" }
            bindings.append(contentsOf: values)
            return "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
        case .lessThan(let column, let value):
            bindings.append(value)
            return "\(column) < ?"
        case .greaterThan(let column, let value):
            bindings.append(value)
            return "\(column) > ?"
        case .isNull(let column):
            return "\(column) IS NULL"
        case .isNotNull(let column):
            return "\(column) IS NOT NULL"
        }
    }
}
