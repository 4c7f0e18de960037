import LiveRepository

/// The kind of a chat message.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum MessageType: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// Plain text.
    case text
    /// An image; the text holds its caption.
    case image
    /// A file attachment; the text holds its name.
    case file
    /// App-defined content in the text.
    case custom
    /// A message written by the server, such as "Ada joined".
    case system
}
