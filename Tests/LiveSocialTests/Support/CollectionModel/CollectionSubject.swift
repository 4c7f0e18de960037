import LiveRepository
import LiveSocial

/// The collections the model check plays, each with the test's own reading of its query.
///
/// - `feed`: a community feed, newest first, anchored at the start (local posts, refusals).
/// - `channels`: the channel list by last activity: a message moves its channel to the top,
///   the query of the package whose sort key changes.
/// - `chat`: a channel's messages, oldest first and anchored at the end (`previousPage()`).
enum CollectionSubject: String, CaseIterable, Sendable {
    case feed, channels, chat

    static let community = "c1"
    static let otherCommunity = "c2"
    static let channel = "general"
    static let otherChannel = "random"

    /// Whether the collection is anchored at the end (display order is anchor order reversed).
    var anchorAtEnd: Bool { self == .chat }

    /// The record kind the collection shows.
    var kind: SocialRecordKind {
        switch self {
        case .feed: .post
        case .channels: .channel
        case .chat: .message
        }
    }

    /// The model row of `record`, or nil when it is not of the shown kind.
    func row(_ record: SocialRecord) -> ModelRow? {
        switch (self, record) {
        case (.feed, .post(let post)):
            ModelRow(
                identity: Self.identity(id: post.id, text: post.text), key: post.createdAt,
                matches: post.targetType == .community && post.targetId == Self.community && !post.isDeleted,
                synced: post.syncState == .synced,
                fields: "\(post.authorId) '\(post.text)' deleted=\(post.isDeleted) \(post.syncState) @\(post.createdAt)", content: "\(post)")
        case (.channels, .channel(let channel)):
            ModelRow(
                identity: channel.id, key: channel.lastActivityAt, matches: !channel.isDeleted, synced: true,
                fields: "members=\(channel.memberCount) last='\(channel.lastMessageText ?? "-")' deleted=\(channel.isDeleted) @\(channel.lastActivityAt)",
                content: "\(channel)")
        case (.chat, .message(let message)):
            ModelRow(
                identity: message.id, key: message.createdAt,
                matches: message.channelId == Self.channel && !message.isDeleted,
                synced: message.syncState == .synced,
                fields: "\(message.userId) '\(message.text)' deleted=\(message.isDeleted) \(message.syncState) @\(message.createdAt)", content: "\(message)")
        default:
            nil
        }
    }

    /// A local record's id is random: the model knows it by its text.
    static func identity(id: String, text: String) -> String {
        id.hasPrefix("local-") ? "local:" + text : id
    }
}
