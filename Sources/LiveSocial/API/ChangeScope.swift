/// Which part of the server's change log a catch-up asks for.
///
/// A chat view catches up on its own channel's messages, and the channel list on channels, so
/// neither downloads what the other needs (see ``SocialAPI/changes(since:limit:scope:)``).
public enum ChangeScope: Sendable, Hashable {
    /// Every change of every kind.
    case all
    /// Changes of channels only.
    case channels
    /// Changes of the messages of one channel only.
    case messages(channelId: String)

    /// Whether a change of `record` belongs to this scope.
    public func contains(_ record: SocialRecord) -> Bool {
        switch (self, record) {
        case (.all, _): true
        case (.channels, .channel): true
        case (.messages(let channelId), .message(let message)): message.channelId == channelId
        default: false
        }
    }
}
