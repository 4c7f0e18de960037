import LiveRepository
import LiveSocial
import Testing

/// Every model survives a trip through its table unchanged, and refuses a row whose enumeration
/// column holds a value it does not know.
@Suite(.timeLimit(.minutes(3)))
struct ModelRoundTripTests {
    // Each record has a distinct value in every column (no two columns share a string or a
    // number, optionals are set, and enums and flags are not their defaults), so a column read
    // from the wrong index or written to the wrong one cannot go unnoticed.

    static let user = User(
        id: "user-id", displayName: "user-name", about: "user-about", avatarURL: "user-avatar", followerCount: 11,
        followingCount: 12, createdAt: 1_001.5, updatedAt: 1_002.5, isDeleted: true)

    static let post = Post(
        id: "post-id", authorId: "post-author", targetType: .user, targetId: "post-target", text: "post-text",
        commentCount: 21, reactionCount: 22, createdAt: 2_001.5, updatedAt: 2_002.5, isDeleted: true, syncState: .error)

    static let comment = Comment(
        id: "comment-id", postId: "comment-post", parentId: "comment-parent", authorId: "comment-author",
        text: "comment-text", replyCount: 31, reactionCount: 32, createdAt: 3_001.5, updatedAt: 3_002.5, isDeleted: true,
        syncState: .syncing)

    static let reaction = Reaction(
        id: "reaction-id", targetType: .message, targetId: "reaction-target", userId: "reaction-user",
        name: "reaction-name", createdAt: 4_001.5, syncState: .error)

    static let follow = Follow(
        id: "follow-id", followerId: "follow-follower", followeeId: "follow-followee", status: .blocked,
        createdAt: 5_001.5, syncState: .syncing)

    static let channel = Channel(
        id: "channel-id", displayName: "channel-name", type: .conversation, memberCount: 61, messageCount: 62,
        lastMessageText: "channel-last-text", lastMessageAt: 6_001.5, lastActivityAt: 6_002.5, createdAt: 6_003.5,
        updatedAt: 6_004.5, isDeleted: true)

    static let message = Message(
        id: "message-id", clientRequestId: "message-request", channelId: "message-channel", userId: "message-user",
        type: .image, text: "message-text", parentId: "message-parent", reactionCount: 71, createdAt: 7_001.5,
        updatedAt: 7_002.5, editedAt: 7_003.5, isDeleted: true, syncState: .error)

    static let channelMember = ChannelMember(
        id: "channel-member-id", channelId: "channel-member-channel", userId: "channel-member-user", role: .moderator,
        membership: .banned, joinedAt: 8_001.5, syncState: .syncing)

    static let community = Community(
        id: "community-id", displayName: "community-name", about: "community-about", isPublic: false,
        memberCount: 91, postCount: 92, createdAt: 9_001.5, updatedAt: 9_002.5, isDeleted: true)

    static let communityMember = CommunityMember(
        id: "community-member-id", communityId: "community-member-community", userId: "community-member-user",
        role: .admin, joinedAt: 10_001.5, syncState: .error)

    /// Checks that the values of `record`'s columns are all different, so the test can tell
    /// columns apart (`false` and `true` are told apart by position only: at most one of each).
    private func expectDistinctColumns<Record: CacheRecord>(_ record: Record) {
        let values = record.columnValues
        #expect(values.count == Record.table.columns.count)
        #expect(!values.contains(.null), "\(Record.self) leaves an optional nil")
        #expect(Set(values).count == values.count, "\(Record.self) repeats a column value")
    }

    private func roundTrip<Record: CacheRecord>(_ record: Record) async throws {
        expectDistinctColumns(record)
        let store = try LiveStore(location: .inMemory, migrations: LiveSocialSchema.migrations)
        let inserted = try await store.write { try $0.upsert(record) }
        #expect(inserted)
        let read = try await store.read { try Record.read(id: record.id, from: $0) }
        #expect(read == record)
        await store.close()
    }

    @Test func userRoundTrips() async throws { try await roundTrip(Self.user) }
    @Test func postRoundTrips() async throws { try await roundTrip(Self.post) }
    @Test func commentRoundTrips() async throws { try await roundTrip(Self.comment) }
    @Test func reactionRoundTrips() async throws { try await roundTrip(Self.reaction) }
    @Test func followRoundTrips() async throws { try await roundTrip(Self.follow) }
    @Test func channelRoundTrips() async throws { try await roundTrip(Self.channel) }
    @Test func messageRoundTrips() async throws { try await roundTrip(Self.message) }
    @Test func channelMemberRoundTrips() async throws { try await roundTrip(Self.channelMember) }
    @Test func communityRoundTrips() async throws { try await roundTrip(Self.community) }
    @Test func communityMemberRoundTrips() async throws { try await roundTrip(Self.communityMember) }

    @Test func everyModelIsCovered() {
        let covered: [any CacheRecord.Type] = [
            User.self, Post.self, Comment.self, Reaction.self, Follow.self, Channel.self, Message.self,
            ChannelMember.self, Community.self, CommunityMember.self,
        ]
        #expect(Set(covered.map { $0.table.name }) == Set(LiveSocialSchema.recordTypes.map { $0.table.name }))
    }

    /// Stores `record`, overwrites `column` with a value no enumeration case has, and expects
    /// reading the row back to throw a type mismatch that names the value and the column.
    private func expectUnknownValueThrows<Record: CacheRecord>(_ record: Record, column: String) async throws {
        #expect(Record.table.columns.contains { $0.name == column })
        let store = try LiveStore(location: .inMemory, migrations: LiveSocialSchema.migrations)
        _ = try await store.write { try $0.upsert(record) }
        let table = Record.table.name
        try await store.write {
            try $0.execute("UPDATE \(table) SET \(column) = 'from-the-future' WHERE id = ?", [.text(record.id)], touching: table)
        }
        await #expect {
            _ = try await store.read { try Record.read(id: record.id, from: $0) }
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.code == 20 /* SQLITE_MISMATCH */ && error.message.contains("'from-the-future' in column \(column)")
        }
        await store.close()
    }

    @Test func anUnknownEnumValueFailsToDecode() async throws {
        try await expectUnknownValueThrows(Self.post, column: "targetType")
        try await expectUnknownValueThrows(Self.post, column: "syncState")
        try await expectUnknownValueThrows(Self.comment, column: "syncState")
        try await expectUnknownValueThrows(Self.reaction, column: "targetType")
        try await expectUnknownValueThrows(Self.follow, column: "status")
        try await expectUnknownValueThrows(Self.channel, column: "type")
        try await expectUnknownValueThrows(Self.message, column: "type")
        try await expectUnknownValueThrows(Self.message, column: "syncState")
        try await expectUnknownValueThrows(Self.channelMember, column: "role")
        try await expectUnknownValueThrows(Self.channelMember, column: "membership")
        try await expectUnknownValueThrows(Self.communityMember, column: "role")
    }
}
