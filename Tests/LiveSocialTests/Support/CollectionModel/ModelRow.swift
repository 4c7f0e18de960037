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
    /// The whole record, as text: not compared with the reference (which does not track every
    /// field), but what tells a real modification from a row delivered again unchanged.
    var content = ""

    var description: String { "\(identity)(\(fields))" }

    static func == (left: ModelRow, right: ModelRow) -> Bool {
        (left.identity, left.key, left.matches, left.synced, left.fields)
            == (right.identity, right.key, right.matches, right.synced, right.fields)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(key)
        hasher.combine(fields)
    }
}
