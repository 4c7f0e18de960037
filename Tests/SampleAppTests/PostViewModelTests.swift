import Foundation
import LiveData
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// One post: its row, its comments, its reactions counted by name, commenting and reacting.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct PostViewModelTests {
    /// A post view model with its holders recorded.
    struct Screen {
        let model: PostViewModel
        let post: Recording<PostRow>
        let comments: Recording<[CommentRow]>
        let reactions: Recording<[ReactionCount]>
        let status: Recording<ScreenStatus>
    }

    private func open(_ fixture: EnvironmentFixture, _ postId: String) -> Screen {
        let model = PostViewModel(postId: postId, environment: fixture.environment)
        return Screen(
            model: model, post: model.post.record(), comments: model.comments.record(),
            reactions: model.reactions.record(), status: model.status.record())
    }

    /// The rich post (see `richPost`) opened, with everything loaded.
    private func openRichPost() async throws -> (EnvironmentFixture, Post, Screen) {
        let fixture = try await EnvironmentFixture.make()
        let post = try await richPost(fixture)
        let screen = open(fixture, post.id)
        try await waitLoaded(fixture, screen)
        return (fixture, post, screen)
    }

    /// The seeded community post with the most reactions among those whose first comment has a reply.
    private func richPost(_ fixture: EnvironmentFixture) async throws -> Post {
        var best: Post?
        for id in try await fixture.server.ids(of: .post) {
            guard let post = try await fixture.server.record(Post.self, id: id), post.targetType == .community else { continue }
            let topLevel = try await fixture.server.records(.comments(postId: id))
            guard topLevel.count >= 2 else { continue }
            if post.reactionCount > best?.reactionCount ?? -1 { best = post }
        }
        return try #require(best)
    }

    /// The server's reactions on a post, counted as the screen shows them for `ada`.
    private func serverCounts(_ fixture: EnvironmentFixture, _ postId: String) async throws -> [ReactionCount] {
        let reactions = try await fixture.server.records(.reactions(targetType: .post, targetId: postId))
        var counts: [String: ReactionCount] = [:]
        for reaction in reactions {
            counts[reaction.name, default: ReactionCount(name: reaction.name, count: 0, isMine: false)].count += 1
            if reaction.userId == "ada" { counts[reaction.name]?.isMine = true }
        }
        return counts.values.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    private func serverRow(_ fixture: EnvironmentFixture, _ postId: String) async throws -> PostRow {
        let post = try #require(try await fixture.server.record(Post.self, id: postId))
        return PostRow(id: post.id, author: post.authorId, text: post.text, commentCount: post.commentCount,
                       reactionCount: post.reactionCount, time: post.createdAt)
    }

    private func commentRows(_ comments: [LiveSocial.Comment]) -> [CommentRow] {
        comments.map { CommentRow(id: $0.id, author: $0.authorId, text: $0.text, replyCount: $0.replyCount) }
    }

    /// Waits until the post, the comments and the reactions are the server's.
    private func waitLoaded(_ fixture: EnvironmentFixture, _ screen: Screen) async throws {
        let postId = screen.model.postId
        let row = try await serverRow(fixture, postId)
        try await screen.post.value { $0 == row }
        try await screen.status.value { $0.source == .fresh && !$0.isLoading }
        let counts = try await serverCounts(fixture, postId)
        try await screen.reactions.value { $0 == counts }
    }

    @Test func itShowsThePostItsCommentsOldestFirstAndItsReactionsByName() async throws {
        let fixture = try await EnvironmentFixture.make()
        let post = try await richPost(fixture)
        let screen = open(fixture, post.id)
        #expect(screen.model.postId == post.id)
        try await waitLoaded(fixture, screen)

        #expect(screen.post.latest == PostRow(
            id: post.id, author: post.authorId, text: post.text, commentCount: post.commentCount,
            reactionCount: post.reactionCount, time: post.createdAt))
        let topLevel = try await fixture.server.records(.comments(postId: post.id))
        #expect(topLevel.count >= 2)
        #expect(zip(topLevel, topLevel.dropFirst()).allSatisfy { $0.createdAt <= $1.createdAt })
        #expect(screen.comments.latest == commentRows(topLevel))
        let counts = try #require(screen.reactions.latest)
        #expect(counts.map(\.count).reduce(0, +) == post.reactionCount)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0.count > $1.count || ($0.count == $1.count && $0.name < $1.name) })
        #expect(screen.status.latest == ScreenStatus(isLoading: false, source: .fresh))
    }

    @Test func aCommentCountsItsRepliesWhichAreNotListedAmongTheComments() async throws {
        let fixture = try await EnvironmentFixture.make()
        let post = try await richPost(fixture)
        let topLevel = try await fixture.server.records(.comments(postId: post.id))
        let answered = try #require(topLevel.first { $0.replyCount > 0 }, "the seeded post has a reply")
        let replies = try await fixture.server.records(.comments(postId: post.id, parentId: answered.id))
        let screen = open(fixture, post.id)
        try await waitLoaded(fixture, screen)
        let rows = try #require(screen.comments.latest)
        #expect(rows.first { $0.id == answered.id }?.replyCount == replies.count)
        #expect(!rows.contains { row in replies.contains { $0.id == row.id } })
    }

    @Test func toggleReactionAddsThenTakesBackTheUsersReaction() async throws {
        let (fixture, post, screen) = try await openRichPost()

        await screen.model.toggleReaction("  Applause ").value
        let added = try await screen.reactions.value { $0.contains { $0.name == "applause" } }
        #expect(added.first { $0.name == "applause" } == ReactionCount(name: "applause", count: 1, isMine: true))
        let reactionId = Reaction.makeID(targetType: .post, targetId: post.id, userId: "ada", name: "applause")
        #expect(try await fixture.server.record(Reaction.self, id: reactionId) != nil)
        #expect(try await screen.post.value { $0.reactionCount == post.reactionCount + 1 }.reactionCount
            == post.reactionCount + 1)
        #expect(added == (try await serverCounts(fixture, post.id)))

        await screen.model.toggleReaction("applause").value
        let removed = try await screen.reactions.value { !$0.contains { $0.name == "applause" } }
        #expect(try await fixture.server.record(Reaction.self, id: reactionId) == nil)
        #expect(removed == (try await serverCounts(fixture, post.id)))
        _ = try await screen.post.value { $0.reactionCount == post.reactionCount }
        #expect(screen.status.latest?.error == nil)
    }

    @Test func twoTogglesInARowReturnAtOnceAndAddThenTakeBackInThatOrder() async throws {
        let (fixture, post, screen) = try await openRichPost()
        let reactionId = Reaction.makeID(targetType: .post, targetId: post.id, userId: "ada", name: "applause")
        fixture.server.setLatency(.seconds(1))
        let add = screen.model.toggleReaction("applause")
        let takeBack = screen.model.toggleReaction("applause")
        // The reaction shows before the server answers; taking it back waits for that answer.
        try await screen.reactions.value { $0.contains { $0.name == "applause" && $0.isMine } }
        await fixture.clock.waitForSleepers(1)
        #expect(try await fixture.server.record(Reaction.self, id: reactionId) == nil)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await add.value
        await takeBack.value
        #expect(try await fixture.server.record(Reaction.self, id: reactionId) == nil, "added, then taken back")
        _ = try await screen.reactions.value { !$0.contains { $0.name == "applause" } }
        #expect(screen.status.latest?.error == nil, "neither toggle failed")
    }

    @Test func joiningAnotherUsersReactionCountsItAsMine() async throws {
        let (_, _, screen) = try await openRichPost()
        let theirs = try #require(screen.reactions.latest?.first { !$0.isMine })

        await screen.model.toggleReaction(theirs.name).value
        let joined = try await screen.reactions.value { $0.contains { $0.name == theirs.name && $0.isMine } }
        #expect(joined.first { $0.name == theirs.name }?.count == theirs.count + 1)

        await screen.model.toggleReaction(theirs.name).value
        let left = try await screen.reactions.value { $0.contains { $0.name == theirs.name && !$0.isMine } }
        #expect(left.first { $0.name == theirs.name } == theirs)
    }

    @Test func aCommentShowsSyncingThenStored() async throws {
        let (fixture, post, screen) = try await openRichPost()
        let before = try #require(screen.comments.latest)

        fixture.server.setLatency(.seconds(1))
        let commenting = screen.model.comment("  Nice post  ")
        let syncing = try #require(try await screen.comments.next { $0.last?.text == "Nice post" }.last)
        #expect(syncing.isSyncing)
        #expect(syncing.author == "ada")
        #expect(syncing.replyCount == 0 && !syncing.isFailed)
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await commenting.value

        let stored = try #require(try await fixture.server.records(.comments(postId: post.id)).last)
        #expect(stored.text == "Nice post")
        let shown = try await screen.comments.value { $0.last == self.commentRows([stored]).first }
        #expect(Array(shown.dropLast()) == before)
        #expect(try await screen.post.value { $0.commentCount == post.commentCount + 1 }.commentCount
            == post.commentCount + 1)
        #expect(screen.status.latest?.error == nil)
    }

    @Test func blankCommentsAndReactionsDoNothing() async throws {
        let (fixture, _, screen) = try await openRichPost()
        let requests = fixture.server.requestCount
        await screen.model.comment("  ").value
        await screen.model.toggleReaction("   ").value
        #expect(fixture.server.requestCount == requests)
    }

    @Test func aFailedCommentOrReactionIsAnError() async throws {
        let (fixture, post, screen) = try await openRichPost()
        fixture.server.failRequests([.mutation], message: "writes are down")

        await screen.model.comment("doomed comment").value
        #expect(screen.status.latest?.error == "not commented: server failure: writes are down")
        await screen.model.toggleReaction("applause").value
        #expect(screen.status.latest?.error == "reaction not saved: server failure: writes are down")
        #expect(try await fixture.server.records(.comments(postId: post.id)).allSatisfy { $0.text != "doomed comment" })
        #expect(try await serverCounts(fixture, post.id).allSatisfy { $0.name != "applause" })
    }

    @Test
    func aReactionTheServerRefusedIsNotCountedAndCanBeAddedLater() async throws {
        let (fixture, post, screen) = try await openRichPost()
        let before = try #require(screen.reactions.latest)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await screen.model.toggleReaction("applause").value
        try await fixture.settle()
        #expect(screen.reactions.latest == before, "the server refused it: the user did not react")

        fixture.server.resetFailures()
        await screen.model.toggleReaction("applause").value
        let reactionId = Reaction.makeID(targetType: .post, targetId: post.id, userId: "ada", name: "applause")
        #expect(try await fixture.server.record(Reaction.self, id: reactionId) != nil, "the second toggle adds it")
        #expect(screen.status.latest?.error == nil)
    }

    @Test
    func theErrorOfARefusedCommentSurvivesTheNextDelivery() async throws {
        let (fixture, post, screen) = try await openRichPost()
        fixture.server.failRequests([.mutation], message: "writes are down")
        await screen.model.comment("doomed comment").value
        #expect(screen.status.latest?.error == "not commented: server failure: writes are down")
        try await fixture.server.perform(.createComment(postId: post.id, parentId: nil, text: "live comment"), as: "tim")
        _ = try await screen.comments.next { $0.contains { $0.text == "live comment" } }
        #expect(screen.status.latest?.error == "not commented: server failure: writes are down",
                "another user's comment is no reason to forget that this one was not stored")
    }

    @Test func aCommentTheServerRefusedIsMarkedFailedNotShownAsStored() async throws {
        let (fixture, _, screen) = try await openRichPost()
        let before = try #require(screen.comments.latest)
        fixture.server.failRequests([.mutation], message: "writes are down")
        await screen.model.comment("doomed comment").value
        try await fixture.settle()
        let rows = try #require(screen.comments.latest)
        #expect(rows.dropLast() == before[...])
        let doomed = try #require(rows.last)
        #expect(doomed.text == "doomed comment" && doomed.isFailed && !doomed.isSyncing)
    }

    @Test func anUnknownPostShowsNoRow() async throws {
        let fixture = try await EnvironmentFixture.make()
        let screen = open(fixture, "post-does-not-exist")
        try await screen.status.value { $0.source == .fresh && !$0.isLoading }
        try await fixture.settle()
        #expect(screen.post.latest == nil)
        #expect(screen.comments.latest == [])
    }

    @Test func loadMoreCommentsBringsTheNextPage() async throws {
        let fixture = try await EnvironmentFixture.make()
        let post = try await richPost(fixture)
        try await fixture.unheard {
            for number in 1...25 {
                try await fixture.server.perform(
                    .createComment(postId: post.id, parentId: nil, text: "comment \(number)"), as: "tim")
            }
        }
        let topLevel = try await fixture.server.records(.comments(postId: post.id))
        let screen = open(fixture, post.id)
        let hasMore = screen.model.hasMore.record()
        try await screen.status.value { $0.source == .fresh && !$0.isLoading }
        #expect(screen.comments.latest == commentRows(Array(topLevel.prefix(20))))
        #expect(try await hasMore.value { $0 } == true)

        screen.model.loadMoreComments()
        #expect(try await screen.comments.value { $0.count == topLevel.count } == commentRows(topLevel))
        #expect(try await hasMore.value { !$0 } == false)
    }

    @Test func aClosedPostDeliversNothingMore() async throws {
        let (fixture, post, screen) = try await openRichPost()
        screen.model.close()
        let counts = (screen.post.count, screen.comments.count, screen.reactions.count)
        try await fixture.server.perform(.createComment(postId: post.id, parentId: nil, text: "unseen"), as: "tim")
        try await fixture.server.perform(.addReaction(targetType: .post, targetId: post.id, name: "applause"), as: "tim")
        try await fixture.settle()
        #expect(screen.post.count == counts.0)
        #expect(screen.comments.count == counts.1)
        #expect(screen.reactions.count == counts.2)
    }
}
