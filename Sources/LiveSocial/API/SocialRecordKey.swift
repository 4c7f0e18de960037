/// Names one record of the social domain: its kind and its id.
public struct SocialRecordKey: Sendable, Hashable, CustomStringConvertible {
    /// The record's kind.
    public var kind: SocialRecordKind
    /// The record's id.
    public var id: String

    /// Creates a key.
    public init(_ kind: SocialRecordKind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    /// `kind/id`, for messages.
    public var description: String { "\(kind.rawValue)/\(id)" }
}
