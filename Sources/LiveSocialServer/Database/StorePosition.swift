import LiveRepository

/// A keyset position: the sort value and id of the last record read.
public struct StorePosition: Sendable, Hashable {
    /// The sort column's value of the last record read.
    public var sortValue: SQLiteValue
    /// The id of the last record read.
    public var id: String

    /// A position after a record.
    public init(sortValue: SQLiteValue, id: String) {
        self.sortValue = sortValue
        self.id = id
    }
}
