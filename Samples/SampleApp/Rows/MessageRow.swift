/// One message of a chat, as the screen shows it.
public struct MessageRow: Sendable, Hashable, Identifiable {
    /// Where sending the message stands.
    public enum State: String, Sendable, Hashable {
        /// Stored by the server.
        case sent
        /// Written here, waiting for the server.
        case pending
        /// Not sent: resend it with `/resend`.
        case failed
    }

    /// The message's id (its client request id while it is not sent).
    public var id: String
    /// The sender's user id.
    public var sender: String
    /// The text.
    public var text: String
    /// When it was written, in seconds since 1970.
    public var time: Double
    /// Where sending it stands.
    public var state: State
    /// Whether the signed-in user wrote it.
    public var isMine: Bool

    /// Creates a row.
    public init(id: String, sender: String, text: String, time: Double, state: State, isMine: Bool) {
        self.id = id
        self.sender = sender
        self.text = text
        self.time = time
        self.state = state
        self.isMine = isMine
    }
}
