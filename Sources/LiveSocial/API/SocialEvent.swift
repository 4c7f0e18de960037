/// A real-time event from the server: a change, or a change of the connection.
///
/// Changes carry the server sequence number they got (see ``ChangeLog``); a client applies
/// them in order and remembers the latest number. Events that happen while the client is
/// disconnected are never delivered: after ``connected``, catch up with
/// ``SocialAPI/changes(since:limit:scope:)``.
public enum SocialEvent: Sendable, Hashable {
    /// A record was created.
    case created(SocialRecord, sequence: Int64)
    /// A record changed. Soft deletions arrive as an update with `isDeleted` set.
    case updated(SocialRecord, sequence: Int64)
    /// A record was removed from the server (a reaction, a follow, a membership).
    case deleted(SocialRecordKey, sequence: Int64)
    /// The connection to the server is up; events flow again.
    case connected
    /// The connection to the server dropped; requests fail with ``SocialAPIError/offline`` until ``connected``.
    case disconnected

    /// The sequence number of a change event; nil for connection events.
    public var sequence: Int64? {
        switch self {
        case .created(_, let sequence), .updated(_, let sequence), .deleted(_, let sequence): sequence
        case .connected, .disconnected: nil
        }
    }

    /// The key of the record a change event is about; nil for connection events.
    public var key: SocialRecordKey? {
        switch self {
        case .created(let record, _), .updated(let record, _): record.key
        case .deleted(let key, _): key
        case .connected, .disconnected: nil
        }
    }
}
