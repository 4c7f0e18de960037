import LiveRepository

/// A further SQL condition on a store's rows: SQL common to SQLite and PostgreSQL, with `?`
/// placeholders, and the values bound to them in order.
public struct StoreFilter: Sendable, Hashable {
    /// The condition, e.g. `type <> ? OR id IN (SELECT channelId FROM channel_members WHERE userId = ?)`.
    public var sql: String
    /// The values of the placeholders.
    public var bindings: [SQLiteValue]

    /// A condition with its bindings.
    public init(sql: String, bindings: [SQLiteValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}
