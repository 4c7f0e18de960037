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
            .messages(channelId: channelId, types: types, senderIds: senderId.map { [$0] }, includeDeleted: includeDeleted,
                      newestFirst: false),
            pageSize: pageSize, anchor: .end,
            serverQuery: .messages(channelId: channelId, types: types, senderIds: senderId.map { [$0] },
                                   includeDeleted: includeDeleted, newestFirst: true))
    }

    /// Sends a message and returns the server's copy.
    ///
    /// The message shows at once as pending (``Message/sendingStatus``), stored in the cache under
    /// its client request id, so it survives a restart. Messages are sent one at a time in the
    /// order they were written; the server's copy then replaces the pending one (same client
    /// request id, never both). The pending copy's ``Message/createdAt`` is the client's clock,
    /// made later than that of the message sent before, so pending messages list in the order
    /// they were sent even when the clock stands still or goes back. See
    /// ``SocialClient/autoResendMessages`` for what a transient failure does.
    ///
    /// - Throws: ``SocialAPIError`` when the attempt fails: on a refusal the message is failed; on
    ///   a transient failure it stays pending and is sent again on reconnection, or after a wait
    ///   when the server failed (or is failed when automatic resending is off). ``ChatError/canceled(clientRequestId:)`` when
    ///   ``cancel(_:)`` took it back first.
    @discardableResult
    public func send(
        _ text: String, to channelId: String, type: MessageType = .text, parentId: String? = nil,
        metaArrays: [String: [String]] = [:]
    ) async throws -> Message {
        let requestID = UUID().uuidString.lowercased()
        let now = client.now()
        let local = Message(id: requestID, clientRequestId: requestID, channelId: channelId, userId: client.userId,
                            type: type, text: text, parentId: parentId, createdAt: now, updatedAt: now,
                            syncState: .syncing, metaArrays: metaArrays)
        return try await client.outbox.send(local)
    }

    /// Sends a failed message again (it shows as pending, then as sent or failed) and returns the
    /// server's copy.
    ///
    /// - Throws: ``ChatError/notFailed(clientRequestId:)`` when the message is not failed; else as
    ///   ``send(_:to:type:parentId:metaArrays:)``.
    @discardableResult
    public func resend(_ message: Message) async throws -> Message {
        try await client.outbox.resend(message)
    }

    /// Cancels a pending message the server has never been asked to store (queued behind others,
    /// or written while offline): it is removed from the cache and reported as
    /// ``SendingStatus/canceled``.
    ///
    /// - Returns: false when the message may have reached the server (it is being sent, an
    ///   attempt's answer was lost, or an earlier run of the app left it pending), or is not pending.
    @discardableResult
    public func cancel(_ message: Message) async -> Bool {
        await client.outbox.cancel(message)
    }

    /// Removes failed messages from the cache; messages that are not failed are left alone.
    ///
    /// - Returns: the client request ids of the messages removed.
    @discardableResult
    public func removeFailed(_ messages: [Message]) async throws -> [String] {
        try await client.outbox.removeFailed(messages)
    }

    /// Sends the pending messages now, including those an earlier run left in the cache, ending
    /// any wait after a server failure. The client does this by itself when the connection comes
    /// back, and after a wait when the server failed (with ``SocialClient/autoResendMessages``).
    public func resendPendingMessages() {
        client.outbox.resume()
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
