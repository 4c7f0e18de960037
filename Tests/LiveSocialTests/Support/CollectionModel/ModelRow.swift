/// One cached row as the collection model sees it: who it is, where it sorts, whether the
/// query shows it, and the fields a comparison checks.
struct ModelRow: Hashable, Sendable, CustomStringConvertible {
    /// The record's id, or `local:<text>` for a record created locally (its id is random).
    var identity: String
    /// The sort key. Anchor order is descending in it for every subject.
    var key: Double
    /// Whether the query shows the row (written in the test, not taken from the library).
    var matches: Bool
    /// Whether the row is the server's copy; a server page never removes the others.
    var synced: Bool
    /// The compared fields, as text.
    var fields: String

    var description: String { "\(identity)(\(fields))" }
}
