/// Where sending a message stands, as a chat view shows it.
public enum SendingStatus: String, Sendable, Hashable, CaseIterable {
    /// Written locally and waiting for the server (queued, in flight, or waiting for the
    /// connection to come back).
    case pending
    /// The server refused it, or sending failed and will not be retried by itself: resend or remove it.
    case failed
    /// The server stored it.
    case succeeded
    /// The user canceled it before it was sent; it is no longer stored anywhere.
    case canceled
}
