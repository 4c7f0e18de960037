import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct EmbeddedServerTests {
    @Test func fetchReturnsTheServerCopyOrNil() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        let ada = try await api.fetch(User.self, id: "ada")
        #expect(ada?.displayName == "Ada Lovelace")
        #expect(ada?.followerCount == 2 && ada?.followingCount == 2)
        #expect(try await api.fetch(User.self, id: "nobody") == nil)
        #expect(try await api.fetch(Channel.self, id: "general")?.memberCount == 6)
    }

    @Test func seedDataIsDeterministic() async throws {
        let first = try await ServerFixture.seeded()
        let second = try await ServerFixture.seeded()
        let messages = SocialQuery.messages(channelId: "keynote")
        #expect(try await first.server.records(messages) == second.server.records(messages))
        #expect(try await first.server.latestSequence() == second.server.latestSequence())
        #expect(try await first.server.ids(of: .post).count == 15)
        for channel in ["general", "random", "keynote", "ada-alan"] {
            let count = try await first.server.records(SocialQuery.messages(channelId: channel)).count
            #expect((24..<40).contains(count))
        }
    }

    @Test func timestampsComeFromTheClockAndNeverRepeat() async throws {
        let fixture = try ServerFixture()
        let user = try await fixture.server.createUser(id: "u", displayName: "U")
        #expect(user.createdAt == ServerFixture.epoch)
        fixture.clock.advance(by: .seconds(90))
        let later = try await fixture.server.createUser(id: "v", displayName: "V")
        #expect(later.createdAt == ServerFixture.epoch + 90)
        let same = try await fixture.server.createUser(id: "w", displayName: "W")
        #expect(same.createdAt > later.createdAt)
    }

    @Test func sendingTheSameClientRequestIdTwiceStoresOneMessage() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        let before = try #require(try await fixture.server.record(Channel.self, id: "general"))
        let send = SocialMutation.sendText("Hello", channelId: "general", clientRequestId: "req-1")
        let first = try #require(try await api.perform(send).first(Message.self))
        let again = try #require(try await api.perform(send).first(Message.self))
        #expect(first == again)
        #expect(first.id != "req-1" && first.clientRequestId == "req-1" && !first.isPending)
        let after = try #require(try await fixture.server.record(Channel.self, id: "general"))
        #expect(after.messageCount == before.messageCount + 1)
        #expect(after.lastMessageText == "Hello" && after.lastActivityAt == first.createdAt)
    }

    @Test func theSameClientRequestIdFromTwoSendersStoresTwoMessages() async throws {
        let fixture = try await ServerFixture.seeded()
        let before = try #require(try await fixture.server.record(Channel.self, id: "general"))
        let fromAda = try #require(try await fixture.connection("ada")
            .perform(.sendText("from ada", channelId: "general", clientRequestId: "shared")).first(Message.self))
        let fromAlan = try #require(try await fixture.connection("alan")
            .perform(.sendText("from alan", channelId: "general", clientRequestId: "shared")).first(Message.self))
        #expect(fromAda.id != fromAlan.id)
        #expect(fromAda.userId == "ada" && fromAda.text == "from ada" && fromAda.clientRequestId == "shared")
        #expect(fromAlan.userId == "alan" && fromAlan.text == "from alan" && fromAlan.clientRequestId == "shared")
        // A resend by either sender answers with that sender's message, and stores nothing new.
        let adaAgain = try #require(try await fixture.connection("ada")
            .perform(.sendText("from ada", channelId: "general", clientRequestId: "shared")).first(Message.self))
        let alanAgain = try #require(try await fixture.connection("alan")
            .perform(.sendText("from alan", channelId: "general", clientRequestId: "shared")).first(Message.self))
        #expect(adaAgain == fromAda)
        #expect(alanAgain == fromAlan)
        let shared = try await fixture.server.records(SocialQuery.messages(channelId: "general"))
            .filter { $0.clientRequestId == "shared" }
        #expect(Set(shared.map(\.id)) == [fromAda.id, fromAlan.id] && shared.count == 2)
        let after = try #require(try await fixture.server.record(Channel.self, id: "general"))
        #expect(after.messageCount == before.messageCount + 2)
    }

    @Test func aLostAnswerThenAResendDoesNotDuplicate() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        let send = SocialMutation.sendText("Once", channelId: "general", clientRequestId: "req-lost")
        fixture.server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) { try await api.perform(send) }
        let resent = try #require(try await api.perform(send).first(Message.self))
        let sent = try await fixture.server.records(SocialQuery.messages(channelId: "general")).filter { $0.text == "Once" }
        #expect(sent == [resent])
    }

    @Test func messagesMatchingARejectionRuleAreRefused() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        fixture.server.rejectMessages(containing: "spam", reason: "no spam please")
        let send = SocialMutation.sendText("Buy SPAM now", channelId: "general", clientRequestId: "req-spam")
        await #expect(throws: SocialAPIError.rejected("no spam please")) { try await api.perform(send) }
        #expect(try await fixture.server.records(SocialQuery.messages(channelId: "general")).allSatisfy { $0.clientRequestId != "req-spam" })
        fixture.server.resetFailures()
        #expect(try await api.perform(send).first(Message.self)?.text == "Buy SPAM now")
    }

    @Test func editAndDeleteMessagesKeepTheChannelInStep() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("alan")
        let sent = try #require(try await api.perform(.sendText("Draft", channelId: "ada-alan", clientRequestId: "r")).first(Message.self))
        let edited = try #require(try await api.perform(.editMessage(id: sent.id, text: "Final")).first(Message.self))
        #expect(edited.text == "Final" && edited.editedAt != nil)
        #expect(try await fixture.server.record(Channel.self, id: "ada-alan")?.lastMessageText == "Final")
        let other = fixture.connection("ada")
        await #expect(throws: SocialAPIError.self) { try await other.perform(.editMessage(id: sent.id, text: "Hijack")) }
        let count = try #require(try await fixture.server.record(Channel.self, id: "ada-alan")).messageCount
        let result = try await api.perform(.deleteMessage(id: sent.id))
        #expect(result.first(Message.self)?.isDeleted == true)
        let channel = try #require(result.first(Channel.self))
        #expect(channel.messageCount == count - 1 && channel.lastMessageText != "Final")
        #expect(try await fixture.server.records(SocialQuery.messages(channelId: "ada-alan", includeDeleted: true)).contains { $0.id == sent.id })
    }

    @Test func commentsAndRepliesUpdateTheirCounts() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("grace")
        let post = try #require(try await api.perform(.createPost(targetType: .community, targetId: "swift", text: "Hi")).first(Post.self))
        #expect(try await fixture.server.record(Community.self, id: "swift")?.postCount == 5)
        let comment = try #require(try await api.perform(.createComment(postId: post.id, parentId: nil, text: "c")).first(Comment.self))
        let replyResult = try await api.perform(.createComment(postId: post.id, parentId: comment.id, text: "r"))
        #expect(replyResult.first(Post.self)?.commentCount == 2)
        #expect(replyResult.records.compactMap { $0.record(as: Comment.self) }.first { $0.id == comment.id }?.replyCount == 1)
        let reply = try #require(replyResult.first(Comment.self))
        _ = try await api.perform(.deleteComment(id: reply.id))
        #expect(try await fixture.server.record(Post.self, id: post.id)?.commentCount == 1)
        #expect(try await fixture.server.record(Comment.self, id: comment.id)?.replyCount == 0)
        _ = try await api.perform(.deletePost(id: post.id))
        #expect(try await fixture.server.record(Community.self, id: "swift")?.postCount == 4)
    }

    @Test func reactionsAreIdempotentAndCounted() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("tim")
        let post = try #require(try await api.perform(.createPost(targetType: .user, targetId: "tim", text: "p")).first(Post.self))
        let react = SocialMutation.addReaction(targetType: .post, targetId: post.id, name: "like")
        let first = try await api.perform(react)
        let second = try await api.perform(react)
        #expect(first.first(Post.self)?.reactionCount == 1)
        #expect(second.first(Reaction.self) == first.first(Reaction.self) && second.first(Post.self) == nil)
        let removed = try await api.perform(.removeReaction(targetType: .post, targetId: post.id, name: "like"))
        #expect(removed.deleted == [SocialRecordKey(.reaction, Reaction.makeID(targetType: .post, targetId: post.id, userId: "tim", name: "like"))])
        #expect(removed.first(Post.self)?.reactionCount == 0)
        await #expect(throws: SocialAPIError.self) { try await api.perform(.addReaction(targetType: .post, targetId: "nope", name: "like")) }
    }

    @Test func followsUpdateBothUsersCounts() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("ada")
        let result = try await api.perform(.follow(userId: "linus"))
        #expect(result.first(Follow.self)?.id == "ada->linus")
        let users = result.records.compactMap { $0.record(as: User.self) }
        #expect(users.first { $0.id == "ada" }?.followingCount == 3)
        #expect(users.first { $0.id == "linus" }?.followerCount == 3)
        await #expect(throws: SocialAPIError.rejected("a user cannot follow themselves")) { try await api.perform(.follow(userId: "ada")) }
        _ = try await api.perform(.unfollow(userId: "linus"))
        #expect(try await fixture.server.record(User.self, id: "linus")?.followerCount == 2)
        #expect(try await fixture.server.record(Follow.self, id: "ada->linus") == nil)
    }

    @Test func joiningAndLeavingChangeMemberships() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("tim")
        let joined = try await api.perform(.joinChannel(id: "random"))
        #expect(joined.first(ChannelMember.self)?.role == .member)
        #expect(joined.first(Channel.self)?.memberCount == 5)
        let left = try await api.perform(.leaveChannel(id: "random"))
        #expect(left.deleted == [SocialRecordKey(.channelMember, "random:tim")])
        #expect(left.first(Channel.self)?.memberCount == 4)
        try await fixture.server.ban("linus", fromChannel: "random")
        await #expect(throws: SocialAPIError.self) {
            try await fixture.connection("linus").perform(.sendText("hi", channelId: "random", clientRequestId: "b"))
        }
        try await fixture.server.createUser(id: "zoe", displayName: "Zoe")
        let community = try #require(try await fixture.server.record(Community.self, id: "hiking"))
        let member = try await fixture.connection("zoe").perform(.joinCommunity(id: "hiking"))
        #expect(member.first(CommunityMember.self)?.id == "hiking:zoe")
        #expect(member.first(Community.self)?.memberCount == community.memberCount + 1)
        let gone = try await fixture.connection("zoe").perform(.leaveCommunity(id: "hiking"))
        #expect(gone.first(Community.self)?.memberCount == community.memberCount)
    }

    @Test func updateUserChangesOnlyTheGivenFields() async throws {
        let fixture = try await ServerFixture.seeded()
        let result = try await fixture.connection("grace").perform(.updateUser(displayName: "Amazing Grace", about: nil, avatarURL: nil))
        let user = try #require(result.first(User.self))
        #expect(user.displayName == "Amazing Grace" && user.about == "Hi, I'm Grace.")
    }

    @Test func bulkLoadFillsChannelsInOneGo() async throws {
        let fixture = try ServerFixture()
        let channels = try await fixture.server.bulkLoadMessages(count: 1_000, channelCount: 4)
        #expect(channels.count == 4)
        let channel = try #require(try await fixture.server.record(Channel.self, id: channels[0]))
        #expect(channel.messageCount == 250 && channel.lastMessageText == "Message 996")
        let all = try await fetchAll(SocialQuery.messages(channelId: channels[1]), from: fixture.connection("bench-user"), pageSize: 100)
        #expect(all.records.count == 250 && all.pages == 3)
    }
}
