import LiveRepository
import LiveSocial

extension MutationEngine {
    func sendMessage(
        channelId: String, clientRequestId: String, type: MessageType, text: String, parentId: String?,
        metaArrays: [String: [String]], as userId: String, in writer: inout ServerWriter
    ) throws {
        // Idempotent by client request id, per sender: a resend answers with the message already
        // stored; another user's message with the same id is not this one.
        let resent = CacheQuery<Message>(
            [.equals("clientRequestId", .text(clientRequestId)), .equals("userId", .text(userId))], orderBy: "createdAt")
        if let stored = try database.read(resent, limit: 1).first {
            return writer.answer(with: stored)
        }
        // Members in good standing only; a private channel is not found by anyone else.
        var channel = try access.requireMessageAccess(channelId, for: userId)
        guard !channel.isDeleted else { throw SocialAPIError.rejected("the channel is deleted") }
        if let reason = controls.rejection(for: text) { throw SocialAPIError.rejected(reason) }
        if let parentId {
            let parent = try require(Message.self, parentId)
            guard parent.channelId == channelId else {
                throw SocialAPIError.rejected("message \(parentId) is not in \(channelId)")
            }
        }
        let message = Message(
            id: "msg-\(try database.nextCounter("message"))", clientRequestId: clientRequestId, channelId: channelId,
            userId: userId, type: type, text: text, parentId: parentId, createdAt: writer.now, updatedAt: writer.now,
            metaArrays: metaArrays)
        try writer.create(message)
        channel.messageCount += 1
        channel.lastMessageText = text
        channel.lastMessageAt = writer.now
        channel.lastActivityAt = writer.now
        channel.updatedAt = writer.now
        try writer.update(channel)
    }

    func editMessage(_ id: String, text: String, as userId: String, in writer: inout ServerWriter) throws {
        _ = try access.requireMessage(id, for: userId)
        var message = try requireOwn(Message.self, id, userId, authorId: \.userId)
        guard !message.isDeleted else { throw SocialAPIError.rejected("the message is deleted") }
        if let reason = controls.rejection(for: text) { throw SocialAPIError.rejected(reason) }
        message.text = text
        message.editedAt = writer.now
        message.updatedAt = writer.now
        try writer.update(message)
        try refreshLastMessage(of: message.channelId, countDelta: 0, in: &writer)
    }

    func deleteMessage(_ id: String, as userId: String, in writer: inout ServerWriter) throws {
        _ = try access.requireMessage(id, for: userId)
        var message = try requireOwn(Message.self, id, userId, authorId: \.userId)
        guard !message.isDeleted else { return writer.answer(with: message) }
        message.isDeleted = true
        message.updatedAt = writer.now
        try writer.update(message)
        try refreshLastMessage(of: message.channelId, countDelta: -1, in: &writer)
    }

    /// Points a channel's last message at its latest message that is not deleted, and changes its count.
    private func refreshLastMessage(of channelId: String, countDelta: Int, in writer: inout ServerWriter) throws {
        guard var channel = try database.load(Channel.self, id: channelId) else { return }
        let newest = SocialQuery<Message>.messages(channelId: channelId, newestFirst: true).cacheQuery
        let latest = try database.read(newest, limit: 1).first
        var updated = channel
        updated.messageCount += countDelta
        updated.lastMessageText = latest?.text
        updated.lastMessageAt = latest?.createdAt
        guard updated != channel else { return }
        channel = updated
        channel.updatedAt = writer.now
        try writer.update(channel)
    }

    func joinChannel(_ id: String, as userId: String, role: MemberRole, in writer: inout ServerWriter) throws {
        var channel = try require(Channel.self, id)
        guard !channel.isDeleted else { throw SocialAPIError.rejected("the channel is deleted") }
        let memberId = ChannelMember.makeID(channelId: id, userId: userId)
        if let existing = try database.load(ChannelMember.self, id: memberId) {
            guard existing.membership != .banned else { throw SocialAPIError.rejected("\(userId) is banned from \(id)") }
            return writer.answer(with: existing)
        }
        try writer.create(ChannelMember(id: memberId, channelId: id, userId: userId, role: role, joinedAt: writer.now))
        channel.memberCount += 1
        channel.updatedAt = writer.now
        try writer.update(channel)
    }
}
