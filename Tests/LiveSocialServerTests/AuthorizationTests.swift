import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

/// The authorization matrix: every `SocialAPI` method, as a member and a non-member of a public
/// and a private channel, and as the author and another user of messages, posts and comments.
///
/// On the demo data: `random` is public with ada, alan, grace and linus (tim and margaret are
/// not members); `ada-alan` is private with ada and alan (the other four are not).
@Suite(.timeLimit(.minutes(3)))
struct AuthorizationTests {
    static let conversation = SocialRecordKey(.channel, "ada-alan")

    /// The newest message of a channel, as the server stores it.
    static func newestMessage(in channelId: String, of server: EmbeddedServer) async throws -> Message {
        try #require(try await server.records(.messages(channelId: channelId)).first)
    }

    // MARK: fetch

    @Test func fetchShowsAPrivateChannelAndItsRecordsToMembersOnly() async throws {
        let fixture = try await ServerFixture.seeded()
        let message = try await Self.newestMessage(in: "ada-alan", of: fixture.server)
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: message.id, name: "like"), as: "alan")
        let reactionId = Reaction.makeID(targetType: .message, targetId: message.id, userId: "alan", name: "like")
        for member in ["ada", "alan"] {
            let api = fixture.connection(member)
            #expect(try await api.fetch(Channel.self, id: "ada-alan")?.id == "ada-alan")
            #expect(try await api.fetch(Message.self, id: message.id)?.reactionCount == 1)
            #expect(try await api.fetch(ChannelMember.self, id: "ada-alan:alan")?.userId == "alan")
            #expect(try await api.fetch(Reaction.self, id: reactionId)?.userId == "alan")
        }
        for outsider in ["grace", "linus", "margaret", "tim"] {
            let api = fixture.connection(outsider)
            // Exactly as if none of it existed.
            #expect(try await api.fetch(Channel.self, id: "ada-alan") == nil)
            #expect(try await api.fetch(Message.self, id: message.id) == nil)
            #expect(try await api.fetch(ChannelMember.self, id: "ada-alan:alan") == nil)
            #expect(try await api.fetch(Reaction.self, id: reactionId) == nil)
            #expect(try await api.fetch(Message.self, id: "msg-999999") == nil)
        }
    }

    @Test func fetchShowsAPublicChannelToAllAndItsMessagesToMembersOnly() async throws {
        let fixture = try await ServerFixture.seeded()
        let message = try await Self.newestMessage(in: "random", of: fixture.server)
        let member = fixture.connection("alan")
        let outsider = fixture.connection("tim")
        #expect(try await member.fetch(Message.self, id: message.id) == message)
        #expect(try await outsider.fetch(Channel.self, id: "random")?.id == "random")
        #expect(try await outsider.fetch(ChannelMember.self, id: "random:ada")?.userId == "ada")
        await #expect(throws: SocialAPIError.rejected("tim is not a member of random: join it to read and send its messages")) {
            try await outsider.fetch(Message.self, id: message.id)
        }
        // Posts, comments, users and communities are everyone's to read.
        let post = try #require(try await fixture.server.records(.communityFeed(communityId: "swift")).first)
        #expect(try await outsider.fetch(Post.self, id: post.id) == post)
        #expect(try await outsider.fetch(Community.self, id: "coffee")?.id == "coffee")
    }

    // MARK: fetchPage and fetchMessages

    @Test func channelListsLeaveOutPrivateChannelsOfOthersOnEveryPage() async throws {
        let fixture = try await ServerFixture.seeded()
        let expected: [String: Set<String>] = [
            "ada": ["general", "random", "keynote", "ada-alan"],
            "alan": ["general", "random", "keynote", "ada-alan"],
            "grace": ["general", "random", "keynote"],
            "tim": ["general", "random", "keynote"],
        ]
        for (userId, channels) in expected {
            for pageSize in [1, 2, 50] {
                let (records, _) = try await fetchAll(.channels(), from: fixture.connection(userId), pageSize: pageSize)
                #expect(Set(records.map(\.id)) == channels, "\(userId), pages of \(pageSize)")
                #expect(records.count == channels.count)
                #expect(isInQueryOrder(records, SocialQuery<Channel>.channels().cacheQuery))
            }
        }
        let conversations = try await fixture.connection("tim").fetchPage(.channels(types: [.conversation]), cursor: nil, limit: 10)
        #expect(conversations.records.isEmpty)
    }

    @Test func messageListsAreForMembersOnly() async throws {
        let fixture = try await ServerFixture.seeded()
        let random = SocialQuery<Message>.messages(channelId: "random")
        let conversation = SocialQuery<Message>.messages(channelId: "ada-alan")
        let start = MessagePosition.before(.infinity, inclusive: true)

        #expect(try await fixture.connection("alan").fetchPage(random, cursor: nil, limit: 5).records.count == 5)
        #expect(try await fixture.connection("alan").fetchPage(conversation, cursor: nil, limit: 5).records.count == 5)
        #expect(try await fixture.connection("ada").fetchMessages(conversation, after: start, limit: 5).count == 5)

        let notAMember = SocialAPIError.rejected("tim is not a member of random: join it to read and send its messages")
        await #expect(throws: notAMember) { try await fixture.connection("tim").fetchPage(random, cursor: nil, limit: 5) }
        await #expect(throws: notAMember) { try await fixture.connection("tim").fetchMessages(random, after: start, limit: 5) }
        // A private channel answers as a missing one does.
        for query in [conversation, SocialQuery<Message>.messages(channelId: "no-such-channel")] {
            let key = SocialRecordKey(.channel, query.kind == conversation.kind ? "ada-alan" : "no-such-channel")
            await #expect(throws: SocialAPIError.notFound(key)) {
                try await fixture.connection("grace").fetchPage(query, cursor: nil, limit: 5)
            }
            await #expect(throws: SocialAPIError.notFound(key)) {
                try await fixture.connection("grace").fetchMessages(query, after: start, limit: 5)
            }
        }
        // A banned member reads no more.
        try await fixture.server.ban("linus", fromChannel: "random")
        await #expect(throws: SocialAPIError.rejected("linus is banned from random")) {
            try await fixture.connection("linus").fetchPage(random, cursor: nil, limit: 5)
        }
    }

    @Test func memberListsAndMessageReactionsFollowTheChannel() async throws {
        let fixture = try await ServerFixture.seeded()
        let members = try await fixture.connection("tim").fetchPage(.channelMembers(channelId: "random"), cursor: nil, limit: 10)
        #expect(Set(members.records.map(\.userId)) == ["ada", "alan", "grace", "linus"])
        #expect(try await fixture.connection("alan").fetchPage(.channelMembers(channelId: "ada-alan"), cursor: nil, limit: 10)
            .records.count == 2)
        await #expect(throws: SocialAPIError.notFound(Self.conversation)) {
            try await fixture.connection("grace").fetchPage(.channelMembers(channelId: "ada-alan"), cursor: nil, limit: 10)
        }

        let message = try await Self.newestMessage(in: "ada-alan", of: fixture.server)
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: message.id, name: "wow"), as: "alan")
        let reactions = SocialQuery<Reaction>.reactions(targetType: .message, targetId: message.id)
        #expect(try await fixture.connection("ada").fetchPage(reactions, cursor: nil, limit: 10).records.map(\.userId) == ["alan"])
        await #expect(throws: SocialAPIError.notFound(SocialRecordKey(.message, message.id))) {
            try await fixture.connection("grace").fetchPage(reactions, cursor: nil, limit: 10)
        }
        let publicMessage = try await Self.newestMessage(in: "random", of: fixture.server)
        await #expect(throws: SocialAPIError.self) {
            try await fixture.connection("tim").fetchPage(
                .reactions(targetType: .message, targetId: publicMessage.id), cursor: nil, limit: 10)
        }
        // Feeds are open to everyone.
        #expect(try await fixture.connection("tim").fetchPage(.communityFeed(communityId: "swift"), cursor: nil, limit: 10)
            .records.isEmpty == false)
    }

    // MARK: perform

    @Test func onlyMembersSendAndAPrivateChannelIsNotFoundByOthers() async throws {
        let fixture = try await ServerFixture.seeded()
        let sent = try await fixture.connection("alan").perform(.sendText("go", channelId: "ada-alan", clientRequestId: "b1"))
        #expect(sent.first(Message.self)?.channelId == "ada-alan")
        _ = try await fixture.connection("ada").perform(.sendText("hi", channelId: "random", clientRequestId: "a1"))
        await #expect(throws: SocialAPIError.rejected("tim is not a member of random: join it to read and send its messages")) {
            try await fixture.connection("tim").perform(.sendText("hi", channelId: "random", clientRequestId: "t1"))
        }
        await #expect(throws: SocialAPIError.notFound(Self.conversation)) {
            try await fixture.connection("grace").perform(.sendText("hi", channelId: "ada-alan", clientRequestId: "g2"))
        }
        // The same rules for another user's actions on the server itself.
        await #expect(throws: SocialAPIError.notFound(Self.conversation)) {
            try await fixture.server.perform(.sendText("hi", channelId: "ada-alan", clientRequestId: "t2"), as: "tim")
        }
    }

    @Test func joiningAPublicChannelOpensItsMessagesAndAPrivateOneCannotBeJoined() async throws {
        let fixture = try await ServerFixture.seeded()
        let tim = fixture.connection("tim")
        let joined = try await tim.perform(.joinChannel(id: "random"))
        #expect(joined.first(ChannelMember.self)?.id == "random:tim")
        #expect(try await tim.fetchPage(.messages(channelId: "random"), cursor: nil, limit: 3).records.count == 3)
        _ = try await tim.perform(.sendText("hello all", channelId: "random", clientRequestId: "t1"))

        await #expect(throws: SocialAPIError.notFound(Self.conversation)) { try await tim.perform(.joinChannel(id: "ada-alan")) }
        await #expect(throws: SocialAPIError.notFound(SocialRecordKey(.channelMember, "ada-alan:tim"))) {
            try await tim.perform(.leaveChannel(id: "ada-alan"))
        }
        // A member joining again changes nothing.
        let again = try await fixture.connection("alan").perform(.joinChannel(id: "ada-alan"))
        #expect(again.first(ChannelMember.self)?.id == "ada-alan:alan")
        #expect(try await fixture.server.record(Channel.self, id: "ada-alan")?.memberCount == 2)

        // Added by the operator, tim sees the private channel, its members and its messages.
        try await fixture.server.addMember("tim", toChannel: "ada-alan")
        #expect(try await tim.fetch(Channel.self, id: "ada-alan")?.memberCount == 3)
        #expect(try await tim.fetchPage(.channels(), cursor: nil, limit: 10).records.contains { $0.id == "ada-alan" })
        #expect(try await tim.fetchPage(.messages(channelId: "ada-alan"), cursor: nil, limit: 2).records.count == 2)
        #expect(try await tim.perform(.joinChannel(id: "ada-alan")).first(ChannelMember.self)?.id == "ada-alan:tim")
    }

    @Test func onlyTheAuthorEditsOrDeletesAMessageAndOnlyWhileAMember() async throws {
        let fixture = try await ServerFixture.seeded()
        let ada = fixture.connection("ada")
        let mine = try #require(try await ada.perform(.sendText("mine", channelId: "random", clientRequestId: "a1")).first(Message.self))
        let edited = try await ada.perform(.editMessage(id: mine.id, text: "still mine"))
        #expect(edited.first(Message.self)?.text == "still mine")
        // Another member is refused; so is a non-member.
        let refused = SocialAPIError.rejected("alan may not change message \(mine.id)")
        await #expect(throws: refused) { try await fixture.connection("alan").perform(.editMessage(id: mine.id, text: "x")) }
        await #expect(throws: refused) { try await fixture.connection("alan").perform(.deleteMessage(id: mine.id)) }
        await #expect(throws: SocialAPIError.self) { try await fixture.connection("tim").perform(.deleteMessage(id: mine.id)) }

        let privateMessage = try await Self.newestMessage(in: "ada-alan", of: fixture.server)
        let hidden = SocialAPIError.notFound(SocialRecordKey(.message, privateMessage.id))
        let grace = fixture.connection("grace")
        await #expect(throws: hidden) { try await grace.perform(.editMessage(id: privateMessage.id, text: "x")) }
        await #expect(throws: hidden) { try await grace.perform(.deleteMessage(id: privateMessage.id)) }
        await #expect(throws: hidden) {
            try await grace.perform(.addReaction(targetType: .message, targetId: privateMessage.id, name: "like"))
        }
        await #expect(throws: SocialAPIError.self) {
            try await fixture.connection("tim").perform(.addReaction(targetType: .message, targetId: mine.id, name: "like"))
        }
        _ = try await fixture.connection("alan").perform(.addReaction(targetType: .message, targetId: mine.id, name: "like"))

        // The author, once gone from the channel, changes it no more.
        _ = try await ada.perform(.leaveChannel(id: "random"))
        await #expect(throws: SocialAPIError.rejected("ada is not a member of random: join it to read and send its messages")) {
            try await ada.perform(.deleteMessage(id: mine.id))
        }
        let deleted = try await fixture.connection("alan").perform(.removeReaction(targetType: .message, targetId: mine.id, name: "like"))
        #expect(deleted.deleted.count == 1)
        #expect(try await fixture.server.record(Message.self, id: mine.id)?.isDeleted == false)
    }

    @Test func onlyTheAuthorEditsOrDeletesAPostOrAComment() async throws {
        let fixture = try await ServerFixture.seeded()
        let post = try #require(try await fixture.connection("tim")
            .perform(.createPost(targetType: .community, targetId: "swift", text: "by tim")).first(Post.self))
        let comment = try #require(try await fixture.connection("ada")
            .perform(.createComment(postId: post.id, parentId: nil, text: "by ada")).first(Comment.self))
        let other = fixture.connection("alan")
        await #expect(throws: SocialAPIError.rejected("alan may not change post \(post.id)")) {
            try await other.perform(.updatePost(id: post.id, text: "x"))
        }
        await #expect(throws: SocialAPIError.rejected("alan may not change post \(post.id)")) {
            try await other.perform(.deletePost(id: post.id))
        }
        await #expect(throws: SocialAPIError.rejected("alan may not change comment \(comment.id)")) {
            try await other.perform(.updateComment(id: comment.id, text: "x"))
        }
        await #expect(throws: SocialAPIError.rejected("alan may not change comment \(comment.id)")) {
            try await other.perform(.deleteComment(id: comment.id))
        }
        #expect(try await fixture.connection("ada").perform(.updateComment(id: comment.id, text: "edited"))
            .first(Comment.self)?.text == "edited")
        #expect(try await fixture.connection("ada").perform(.deleteComment(id: comment.id)).first(Comment.self)?.isDeleted == true)
        #expect(try await fixture.connection("tim").perform(.updatePost(id: post.id, text: "edited")).first(Post.self)?.text == "edited")
        #expect(try await fixture.connection("tim").perform(.deletePost(id: post.id)).first(Post.self)?.isDeleted == true)
    }

    // MARK: changes

    @Test func changeLogsHoldOnlyWhatTheUserMaySee() async throws {
        let fixture = try await ServerFixture.seeded()
        let since = try await fixture.connection("ada").latestSequence()
        let secret = try await fixture.server.perform(.sendText("secret", channelId: "ada-alan", clientRequestId: "a1"), as: "ada")
        let secretId = try #require(secret.first(Message.self)?.id)
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: secretId, name: "like"), as: "alan")
        try await fixture.server.perform(.removeReaction(targetType: .message, targetId: secretId, name: "like"), as: "alan")
        try await fixture.server.perform(.leaveChannel(id: "ada-alan"), as: "alan")
        try await fixture.server.perform(.sendText("open", channelId: "random", clientRequestId: "b1"), as: "alan")
        let latest = try await fixture.server.latestSequence()

        let grace = try await fixture.connection("grace").changes(since: since, limit: 100, scope: .all)
        #expect(grace.records(of: Message.self).map(\.text) == ["open"])
        #expect(grace.records(of: Channel.self).map(\.id) == ["random"])
        #expect(grace.deleted.isEmpty)
        #expect(grace.latestSequence == latest && !grace.hasMore)

        let tim = try await fixture.connection("tim").changes(since: since, limit: 100, scope: .all)
        #expect(tim.records(of: Message.self).isEmpty)
        #expect(tim.records(of: Channel.self).map(\.id) == ["random"])
        #expect(tim.deleted.isEmpty)

        let ada = try await fixture.connection("ada").changes(since: since, limit: 100, scope: .all)
        #expect(ada.records(of: Message.self).map(\.text) == ["secret", "open"])
        #expect(Set(ada.records(of: Channel.self).map(\.id)) == ["ada-alan", "random"])
        #expect(Set(ada.deleted) == [
            SocialRecordKey(.reaction, Reaction.makeID(targetType: .message, targetId: secretId, userId: "alan", name: "like")),
            SocialRecordKey(.channelMember, "ada-alan:alan"),
        ])
        // The leaver learns that his own membership is gone, and nothing of the channel after,
        // even from a sequence number before he left.
        let alan = try await fixture.connection("alan").changes(since: since, limit: 100, scope: .all)
        #expect(alan.deleted == [SocialRecordKey(.channelMember, "ada-alan:alan")])
        #expect(alan.records(of: Channel.self).map(\.id) == ["random"])
        #expect(alan.records(of: Message.self).map(\.text) == ["open"])

        let channels = try await fixture.connection("grace").changes(since: 0, limit: 1_000, scope: .channels)
        #expect(!channels.records(of: Channel.self).contains { $0.id == "ada-alan" })
        #expect(channels.records(of: Channel.self).contains { $0.id == "random" })
        await #expect(throws: SocialAPIError.notFound(Self.conversation)) {
            try await fixture.connection("grace").changes(since: since, limit: 100, scope: .messages(channelId: "ada-alan"))
        }
        await #expect(throws: SocialAPIError.self) {
            try await fixture.connection("tim").changes(since: since, limit: 100, scope: .messages(channelId: "random"))
        }
        let scoped = try await fixture.connection("ada").changes(since: since, limit: 100, scope: .messages(channelId: "ada-alan"))
        #expect(scoped.records(of: Message.self).map(\.text) == ["secret"])
    }

    @Test func theWholeChangeLogFromTheStartNeverShowsAPrivateChannelToOthers() async throws {
        let fixture = try await ServerFixture.seeded()
        for userId in ["grace", "linus", "margaret", "tim"] {
            var since: Int64 = 0
            var log: ChangeLog
            repeat {
                log = try await fixture.connection(userId).changes(since: since, limit: 97, scope: .all)
                for record in log.records {
                    switch record {
                    case .channel(let channel): #expect(channel.id != "ada-alan")
                    case .message(let message): #expect(message.channelId != "ada-alan")
                    case .channelMember(let member): #expect(member.channelId != "ada-alan")
                    default: break
                    }
                }
                since = log.latestSequence
            } while log.hasMore
        }
        let ada = try await fixture.connection("ada").changes(since: 0, limit: 5_000, scope: .all)
        #expect(ada.records(of: Message.self).contains { $0.channelId == "ada-alan" })
        #expect(ada.records(of: ChannelMember.self).contains { $0.id == "ada-alan:alan" })
        // Nor does a public channel's history reach a non-member's.
        let random = try await fixture.connection("tim").changes(since: 0, limit: 5_000, scope: .all)
        #expect(!random.records(of: Message.self).contains { $0.channelId == "random" })
    }
}
