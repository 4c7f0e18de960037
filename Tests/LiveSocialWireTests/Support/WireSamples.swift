import LiveRepository
import LiveSocial
import LiveSocialWire

/// One or more values of every case of the wire's types, with awkward content (quotes, newlines,
/// non-ASCII text, the largest Unicode scalar, nil and non-nil optionals).
enum WireSamples {
    static let awkward = "quote \" backslash \\ newline \n tab \t emoji 🦊 \u{10FFFF} ünïcödé"

    static let user = User(
        id: "alan", displayName: "Alan \"Al\"", about: awkward, avatarURL: "https://example.com/a.png",
        followerCount: 3, followingCount: 4, createdAt: 1_700_000_000.25, updatedAt: 1_700_000_001.5)
    static let deletedUser = User(id: "gone", displayName: "", createdAt: 0, updatedAt: -1.5, isDeleted: true)
    static let post = Post(
        id: "p1", authorId: "alan", targetType: .community, targetId: "c1", text: awkward, commentCount: 2, reactionCount: 9,
        createdAt: 1.125, updatedAt: 2.75, isDeleted: true)
    static let comment = Comment(
        id: "k1", postId: "p1", parentId: "k0", authorId: "ada", text: "reply", replyCount: 1, reactionCount: 2,
        createdAt: 3, updatedAt: 4)
    static let topComment = Comment(id: "k0", postId: "p1", authorId: "ada", text: "", createdAt: 3, updatedAt: 3)
    static let reaction = Reaction(
        id: Reaction.makeID(targetType: .message, targetId: "m1", userId: "ada", name: "like"), targetType: .message,
        targetId: "m1", userId: "ada", name: "like", createdAt: 5)
    static let follow = Follow(
        id: Follow.makeID(followerId: "ada", followeeId: "alan"), followerId: "ada", followeeId: "alan", status: .pending,
        createdAt: 6)
    static let channel = Channel(
        id: "general", displayName: "General", type: .community, memberCount: 5, messageCount: 12, lastMessageText: "hi",
        lastMessageAt: 7.5, lastActivityAt: 7.5, createdAt: 1, updatedAt: 7.5)
    static let emptyChannel = Channel(id: "quiet", displayName: "Quiet", type: .conversation, lastActivityAt: 1, createdAt: 1, updatedAt: 1)
    static let message = Message(
        id: "m1", clientRequestId: "7D3F2C1A-0000-4000-8000-000000000001", channelId: "general", userId: "alan",
        type: .image, text: awkward, parentId: "m0", reactionCount: 2, createdAt: 8.000_001, updatedAt: 9, editedAt: 9,
        isDeleted: false, metaArrays: ["tags": ["a", "b"], "empty": []],
        reactions: [MessageReaction(key: "like", userIds: ["ada", "alan"]), MessageReaction(key: "🦊", userIds: ["bob"])])
    static let plainMessage = Message(
        id: "m2", clientRequestId: "c2", channelId: "general", userId: "ada", text: "plain", createdAt: 10, updatedAt: 10)
    static let channelMember = ChannelMember(
        id: ChannelMember.makeID(channelId: "general", userId: "ada"), channelId: "general", userId: "ada", role: .moderator,
        membership: .banned, joinedAt: 11)
    static let community = Community(
        id: "c1", displayName: "Swift", about: "about", isPublic: false, memberCount: 2, postCount: 1, createdAt: 12,
        updatedAt: 13, isDeleted: true)
    static let communityMember = CommunityMember(
        id: CommunityMember.makeID(communityId: "c1", userId: "ada"), communityId: "c1", userId: "ada", role: .admin,
        joinedAt: 14)

    /// At least one record of every kind.
    static let records: [SocialRecord] = [
        .user(user), .user(deletedUser), .post(post), .comment(comment), .comment(topComment), .reaction(reaction),
        .follow(follow), .channel(channel), .channel(emptyChannel), .message(message), .message(plainMessage),
        .channelMember(channelMember), .community(community), .communityMember(communityMember),
    ]

    /// Every query kind, most of them twice: with their optional filters set and unset.
    static let queryKinds: [SocialQueryKind] = [
        .userFeed(userId: "alan", includeDeleted: false), .userFeed(userId: "alan", includeDeleted: true),
        .postsByAuthor(authorId: "ada", includeDeleted: true),
        .communityFeed(communityId: "c1", includeDeleted: false),
        .comments(postId: "p1", parentId: nil, newestFirst: false, includeDeleted: false),
        .comments(postId: "p1", parentId: "k0", newestFirst: true, includeDeleted: true),
        .reactions(targetType: .post, targetId: "p1", name: nil), .reactions(targetType: .message, targetId: "m1", name: "like"),
        .followers(userId: "alan", status: .accepted), .followers(userId: "alan", status: nil),
        .following(userId: "ada", status: .blocked), .following(userId: "ada", status: nil),
        .channels(types: nil, includeDeleted: false), .channels(types: [.live, .community], includeDeleted: true),
        .channels(types: [], includeDeleted: false),
        .messages(channelId: "general", types: nil, senderIds: nil, includeDeleted: false, newestFirst: true),
        .messages(channelId: "general", types: [.text, .system], senderIds: ["ada", "alan"], includeDeleted: true, newestFirst: false),
        .channelMembers(channelId: "general", roles: nil, memberships: [.member]),
        .channelMembers(channelId: "general", roles: [.admin, .moderator], memberships: nil),
        .communities(publicOnly: false, includeDeleted: false, sortedBy: .displayName),
        .communities(publicOnly: true, includeDeleted: true, sortedBy: .newestFirst),
        .communityMembers(communityId: "c1", roles: nil), .communityMembers(communityId: "c1", roles: [.member]),
    ]

    /// Every mutation, with optional parameters set and unset.
    static let mutations: [SocialMutation] = [
        .createPost(targetType: .user, targetId: "alan", text: awkward), .createPost(targetType: .community, targetId: "c1", text: ""),
        .updatePost(id: "p1", text: "edited"), .deletePost(id: "p1"),
        .createComment(postId: "p1", parentId: nil, text: "first"), .createComment(postId: "p1", parentId: "k0", text: "reply"),
        .updateComment(id: "k1", text: "edited"), .deleteComment(id: "k1"),
        .addReaction(targetType: .comment, targetId: "k1", name: "like"), .removeReaction(targetType: .post, targetId: "p1", name: "🦊"),
        .follow(userId: "ada"), .unfollow(userId: "ada"),
        .sendMessage(channelId: "general", clientRequestId: "r1", type: .file, text: "a.pdf", parentId: "m1", metaArrays: ["k": ["v"]]),
        .sendText("hello", channelId: "general", clientRequestId: "r2"),
        .editMessage(id: "m1", text: "edited"), .deleteMessage(id: "m1"),
        .joinChannel(id: "general"), .leaveChannel(id: "general"), .joinCommunity(id: "c1"), .leaveCommunity(id: "c1"),
        .updateUser(displayName: "Alan", about: nil, avatarURL: nil), .updateUser(displayName: nil, about: "x", avatarURL: "y"),
    ]

    static let keys: [SocialRecordKey] = SocialRecordKind.allCases.map { SocialRecordKey($0, "id/with spaces?\($0)") }

    /// Every event case.
    static let events: [SocialEvent] = [
        .created(.message(message), sequence: 1), .updated(.post(post), sequence: Int64.max),
        .deleted(SocialRecordKey(.reaction, reaction.id), sequence: 3), .connected, .disconnected,
    ]
}
