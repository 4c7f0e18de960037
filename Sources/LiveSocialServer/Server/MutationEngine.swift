import LiveRepository
import LiveSocial

/// Applies ``SocialMutation``s to the server database as a given user, keeping counts in step.
///
/// Deletions of posts, comments and messages are soft; reactions, follows and memberships are
/// removed. Every check that fails throws ``SocialAPIError`` before anything is written.
///
/// ``apply(_:as:in:)`` holds the authorization rules of mutations (see ``AccessRules``): only
/// members in good standing send to a channel and react to its messages; only authors edit and
/// delete their posts, comments and messages; a private channel is joined by being added to it,
/// never by id.
struct MutationEngine {
    let database: any ServerStore
    let controls: ServerControls

    /// The rules of who may see and change what.
    var access: AccessRules { AccessRules(database: database) }

    func apply(_ mutation: SocialMutation, as userId: String, in writer: inout ServerWriter) throws {
        _ = try require(User.self, userId)
        switch mutation {
        case .createPost(let targetType, let targetId, let text):
            try createPost(targetType: targetType, targetId: targetId, text: text, as: userId, in: &writer)
        case .updatePost(let id, let text):
            var post = try requireOwn(Post.self, id, userId, authorId: \.authorId)
            guard !post.isDeleted else { throw SocialAPIError.rejected("the post is deleted") }
            post.text = text
            post.updatedAt = writer.now
            try writer.update(post)
        case .deletePost(let id):
            try deletePost(id, as: userId, in: &writer)
        case .createComment(let postId, let parentId, let text):
            try createComment(postId: postId, parentId: parentId, text: text, as: userId, in: &writer)
        case .updateComment(let id, let text):
            var comment = try requireOwn(Comment.self, id, userId, authorId: \.authorId)
            guard !comment.isDeleted else { throw SocialAPIError.rejected("the comment is deleted") }
            comment.text = text
            comment.updatedAt = writer.now
            try writer.update(comment)
        case .deleteComment(let id):
            try deleteComment(id, as: userId, in: &writer)
        case .addReaction(let targetType, let targetId, let name):
            if targetType == .message { _ = try access.requireMessage(targetId, for: userId) }
            try addReaction(targetType, targetId, name, as: userId, in: &writer)
        case .removeReaction(let targetType, let targetId, let name):
            if targetType == .message { _ = try access.requireMessage(targetId, for: userId) }
            let id = Reaction.makeID(targetType: targetType, targetId: targetId, userId: userId, name: name)
            _ = try require(Reaction.self, id)
            try writer.remove(SocialRecordKey(.reaction, id))
            try adjustReactionCount(targetType, targetId, by: -1, userId: userId, name: name, in: &writer)
        case .follow(let followeeId):
            try follow(followeeId, as: userId, in: &writer)
        case .unfollow(let followeeId):
            let follow = try require(Follow.self, Follow.makeID(followerId: userId, followeeId: followeeId))
            try writer.remove(SocialRecordKey(.follow, follow.id))
            if follow.status == .accepted { try adjustFollowCounts(userId, followeeId, by: -1, in: &writer) }
        case .sendMessage(let channelId, let clientRequestId, let type, let text, let parentId, let metaArrays):
            try sendMessage(
                channelId: channelId, clientRequestId: clientRequestId, type: type, text: text, parentId: parentId,
                metaArrays: metaArrays, as: userId, in: &writer)
        case .editMessage(let id, let text):
            try editMessage(id, text: text, as: userId, in: &writer)
        case .deleteMessage(let id):
            try deleteMessage(id, as: userId, in: &writer)
        case .joinChannel(let id):
            // A private channel is joined by being added to it; to others it does not exist.
            guard try access.knownChannel(id, to: userId) != nil else {
                throw SocialAPIError.notFound(SocialRecordKey(.channel, id))
            }
            try joinChannel(id, as: userId, role: .member, in: &writer)
        case .leaveChannel(let id):
            let member = try require(ChannelMember.self, ChannelMember.makeID(channelId: id, userId: userId))
            try writer.remove(SocialRecordKey(.channelMember, member.id))
            var channel = try require(Channel.self, id)
            channel.memberCount -= 1
            channel.updatedAt = writer.now
            try writer.update(channel)
        case .joinCommunity(let id):
            try joinCommunity(id, as: userId, role: .member, in: &writer)
        case .leaveCommunity(let id):
            let member = try require(CommunityMember.self, CommunityMember.makeID(communityId: id, userId: userId))
            try writer.remove(SocialRecordKey(.communityMember, member.id))
            var community = try require(Community.self, id)
            community.memberCount -= 1
            community.updatedAt = writer.now
            try writer.update(community)
        case .updateUser(let displayName, let about, let avatarURL):
            var user = try require(User.self, userId)
            if let displayName { user.displayName = displayName }
            if let about { user.about = about }
            if let avatarURL { user.avatarURL = avatarURL }
            user.updatedAt = writer.now
            try writer.update(user)
        }
    }

    // MARK: Lookups

    /// The record with `id`, or ``SocialAPIError/notFound(_:)``.
    func require<Record: CacheRecord>(_ type: Record.Type, _ id: String) throws -> Record {
        guard let record = try database.load(type, id: id) else {
            throw SocialAPIError.notFound(SocialRecordKey(SocialRecordKind(of: type) ?? .user, id))
        }
        return record
    }

    /// The record with `id` if `userId` wrote it, else ``SocialAPIError/rejected(_:)``.
    func requireOwn<Record: CacheRecord>(
        _ type: Record.Type, _ id: String, _ userId: String, authorId: KeyPath<Record, String>
    ) throws -> Record {
        let record = try require(type, id)
        guard record[keyPath: authorId] == userId else {
            throw SocialAPIError.rejected("\(userId) may not change \(SocialRecordKind(of: type)?.rawValue ?? "record") \(id)")
        }
        return record
    }

    // MARK: Feeds

    private func createPost(
        targetType: FeedTargetType, targetId: String, text: String, as userId: String, in writer: inout ServerWriter
    ) throws {
        var community: Community?
        switch targetType {
        case .community:
            community = try require(Community.self, targetId)
            guard community?.isDeleted == false else { throw SocialAPIError.rejected("the community is deleted") }
        case .user:
            _ = try require(User.self, targetId)
        }
        let id = "post-\(try database.nextCounter("post"))"
        try writer.create(Post(
            id: id, authorId: userId, targetType: targetType, targetId: targetId, text: text,
            createdAt: writer.now, updatedAt: writer.now))
        if var community {
            community.postCount += 1
            community.updatedAt = writer.now
            try writer.update(community)
        }
    }

    private func deletePost(_ id: String, as userId: String, in writer: inout ServerWriter) throws {
        var post = try requireOwn(Post.self, id, userId, authorId: \.authorId)
        guard !post.isDeleted else { return writer.answer(with: post) }
        post.isDeleted = true
        post.updatedAt = writer.now
        try writer.update(post)
        if post.targetType == .community, var community = try database.load(Community.self, id: post.targetId) {
            community.postCount -= 1
            community.updatedAt = writer.now
            try writer.update(community)
        }
    }

    private func createComment(
        postId: String, parentId: String?, text: String, as userId: String, in writer: inout ServerWriter
    ) throws {
        var post = try require(Post.self, postId)
        guard !post.isDeleted else { throw SocialAPIError.rejected("the post is deleted") }
        var parent = try parentId.map { try require(Comment.self, $0) }
        if let parent, parent.postId != postId || parent.isDeleted {
            throw SocialAPIError.rejected("comment \(parent.id) cannot be replied to on post \(postId)")
        }
        let id = "comment-\(try database.nextCounter("comment"))"
        try writer.create(Comment(
            id: id, postId: postId, parentId: parentId, authorId: userId, text: text,
            createdAt: writer.now, updatedAt: writer.now))
        post.commentCount += 1
        post.updatedAt = writer.now
        try writer.update(post)
        if parent != nil {
            parent?.replyCount += 1
            parent?.updatedAt = writer.now
            try parent.map { try writer.update($0) }
        }
    }

    private func deleteComment(_ id: String, as userId: String, in writer: inout ServerWriter) throws {
        var comment = try requireOwn(Comment.self, id, userId, authorId: \.authorId)
        guard !comment.isDeleted else { return writer.answer(with: comment) }
        comment.isDeleted = true
        comment.updatedAt = writer.now
        try writer.update(comment)
        if var post = try database.load(Post.self, id: comment.postId) {
            post.commentCount -= 1
            post.updatedAt = writer.now
            try writer.update(post)
        }
        if let parentId = comment.parentId, var parent = try database.load(Comment.self, id: parentId) {
            parent.replyCount -= 1
            parent.updatedAt = writer.now
            try writer.update(parent)
        }
    }

    private func addReaction(
        _ targetType: ReactionTargetType, _ targetId: String, _ name: String, as userId: String,
        in writer: inout ServerWriter
    ) throws {
        let id = Reaction.makeID(targetType: targetType, targetId: targetId, userId: userId, name: name)
        if let existing = try database.load(Reaction.self, id: id) { return writer.answer(with: existing) }
        try writer.create(Reaction(
            id: id, targetType: targetType, targetId: targetId, userId: userId, name: name, createdAt: writer.now))
        try adjustReactionCount(targetType, targetId, by: 1, userId: userId, name: name, in: &writer)
    }

    /// Changes a target's `reactionCount` (and a message's reaction summary). A new reaction (a
    /// positive delta) on a deleted target is refused; the whole mutation then rolls back.
    private func adjustReactionCount(
        _ targetType: ReactionTargetType, _ targetId: String, by delta: Int, userId: String, name: String,
        in writer: inout ServerWriter
    ) throws {
        func adjust<Record: CacheRecord>(
            _ type: Record.Type, _ count: WritableKeyPath<Record, Int>, deleted: KeyPath<Record, Bool>,
            updatedAt: WritableKeyPath<Record, Double>, also change: (inout Record) -> Void = { _ in }
        ) throws {
            var record = try require(type, targetId)
            if delta > 0, record[keyPath: deleted] { throw SocialAPIError.rejected("\(targetId) is deleted") }
            record[keyPath: count] += delta
            record[keyPath: updatedAt] = writer.now
            change(&record)
            try writer.update(record)
        }
        switch targetType {
        case .post: try adjust(Post.self, \.reactionCount, deleted: \.isDeleted, updatedAt: \.updatedAt)
        case .comment: try adjust(Comment.self, \.reactionCount, deleted: \.isDeleted, updatedAt: \.updatedAt)
        case .message:
            try adjust(Message.self, \.reactionCount, deleted: \.isDeleted, updatedAt: \.updatedAt) { message in
                message.reactions = Self.reactions(message.reactions, adding: delta > 0, userId: userId, key: name)
            }
        }
    }

    /// A message's reaction summary after a user adds or removes a reaction; keys keep the order
    /// of their first reaction, and a key no one uses any more is dropped.
    static func reactions(_ reactions: [MessageReaction], adding: Bool, userId: String, key: String) -> [MessageReaction] {
        var result = reactions
        let index = result.firstIndex { $0.key == key }
        if adding {
            if let index {
                if !result[index].userIds.contains(userId) { result[index].userIds.append(userId) }
            } else {
                result.append(MessageReaction(key: key, userIds: [userId]))
            }
        } else if let index {
            result[index].userIds.removeAll { $0 == userId }
            if result[index].userIds.isEmpty { result.remove(at: index) }
        }
        return result
    }

    private func follow(_ followeeId: String, as userId: String, in writer: inout ServerWriter) throws {
        guard followeeId != userId else { throw SocialAPIError.rejected("a user cannot follow themselves") }
        _ = try require(User.self, followeeId)
        let id = Follow.makeID(followerId: userId, followeeId: followeeId)
        if let existing = try database.load(Follow.self, id: id) { return writer.answer(with: existing) }
        try writer.create(Follow(id: id, followerId: userId, followeeId: followeeId, createdAt: writer.now))
        try adjustFollowCounts(userId, followeeId, by: 1, in: &writer)
    }

    private func adjustFollowCounts(_ followerId: String, _ followeeId: String, by delta: Int, in writer: inout ServerWriter) throws {
        if var follower = try database.load(User.self, id: followerId) {
            follower.followingCount += delta
            follower.updatedAt = writer.now
            try writer.update(follower)
        }
        if var followee = try database.load(User.self, id: followeeId) {
            followee.followerCount += delta
            followee.updatedAt = writer.now
            try writer.update(followee)
        }
    }

    func joinCommunity(_ id: String, as userId: String, role: MemberRole, in writer: inout ServerWriter) throws {
        var community = try require(Community.self, id)
        guard !community.isDeleted else { throw SocialAPIError.rejected("the community is deleted") }
        let memberId = CommunityMember.makeID(communityId: id, userId: userId)
        if let existing = try database.load(CommunityMember.self, id: memberId) { return writer.answer(with: existing) }
        try writer.create(CommunityMember(id: memberId, communityId: id, userId: userId, role: role, joinedAt: writer.now))
        community.memberCount += 1
        community.updatedAt = writer.now
        try writer.update(community)
    }
}
