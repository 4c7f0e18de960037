import Foundation
import LiveRepository

/// Messages in channels: live lists, sending, editing and deleting.
///
/// Get it from ``SocialClient/messages``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct MessageRepository {
    let client: SocialClient

    /// The message with `id`, live.
    public func get(id: String) -> LiveObject<Message> { client.liveObject(Message.self, id: id) }

    /// A channel's messages, in chat order: oldest at index 0, newest at the last index, opening
    /// on the newest page and paging back into history with `previousPage()`. New messages
    /// arrive at the end.
    ///
    /// - Parameters:
    ///   - channelId: the channel whose messages to show.
    ///   - types: only these message types, or all.
    ///   - senderId: only this user's messages, or everyone's.
    ///   - includeDeleted: include deleted messages (shown with `isDeleted`).
    ///   - pageSize: the messages a page adds; 20 by default.
    public func messages(
        channelId: String, types: Set<MessageType>? = nil, senderId: String? = nil, includeDeleted: Bool = false,
        pageSize: Int = 20
    ) -> LiveCollection<Message> {
        // Shown oldest first and anchored at the newest end: the server pages newest first.
        client.liveCollection(
            .messages(channelId: channelId, types: types, senderId: senderId, includeDeleted: includeDeleted,
                      newestFirst: false),
            pageSize: pageSize, anchor: .end,
            serverQuery: .messages(channelId: channelId, types: types, senderId: senderId,
                                   includeDeleted: includeDeleted, newestFirst: true))
    }

    /// Sends a text message. It shows at once as `syncing` under its client request id, then
    /// the server's copy replaces it (same client request id, never both), or it stays with
    /// `error` if the server refuses (the error is thrown).
    @discardableResult
    public func send(_ text: String, to channelId: String, type: MessageType = .text, parentId: String? = nil) async throws -> Message? {
        let requestID = UUID().uuidString.lowercased()
        let now = client.now()
        let local = Message(id: requestID, clientRequestId: requestID, channelId: channelId, userId: client.userId,
                            type: type, text: text, parentId: parentId, createdAt: now, updatedAt: now)
        let result = try await client.mutate(
            .sendMessage(channelId: channelId, clientRequestId: requestID, type: type, text: text, parentId: parentId),
            local: local, syncState: \.syncState)
        return result.first(Message.self)
    }

    /// Edits a message's text.
    public func edit(_ message: Message, text: String) async throws {
        var local = message
        local.text = text
        let now = client.now()
        local.editedAt = now
        local.updatedAt = now
        try await client.mutate(.editMessage(id: message.id, text: text), local: local, syncState: \.syncState)
    }

    /// Deletes a message (softly).
    public func delete(_ message: Message) async throws {
        var local = message
        local.isDeleted = true
        try await client.mutate(.deleteMessage(id: message.id), local: local, syncState: \.syncState)
    }
}
