/// Which kinds of message a message collection lists, in the families chat SDKs use.
public enum MessageTypeFilter: String, Sendable, Hashable, CaseIterable {
    /// Every message.
    case all
    /// Messages users write: ``MessageType/text`` and ``MessageType/custom``.
    case user
    /// Attachments: ``MessageType/image`` and ``MessageType/file``.
    case file
    /// Messages from the system: ``MessageType/system``.
    case admin

    /// The message types the filter lets through; nil for every type.
    public var types: Set<MessageType>? {
        switch self {
        case .all: nil
        case .user: [.text, .custom]
        case .file: [.image, .file]
        case .admin: [.system]
        }
    }
}
