import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct CommentRepositoryTests {
    @Test func getShowsTheCachedCommentFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let comments = fixture.client.comments.comments(postId: "post-7")
        let (listLog, listToken) = comments.record()
        let listed = try await comments.next(in: listLog) { $0.dataStatus == .fresh }
        let first = try #require(listed.records.first)
        _ = try await fixture.server.perform(.updateComment(id: first.id, text: "changed meanwhile"), as: first.authorId)

        let comment = fixture.client.comments.get(id: first.id)
        let (log, token) = comment.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == first)
        let fresh = try await comment.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.text == "changed meanwhile")
        _ = (listToken, token)
    }

    @Test func topLevelCommentsAndRepliesMatchTheServer() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let topLevel = fixture.client.comments.comments(postId: "post-7")
        let (topLog, topToken) = topLevel.record()
        let top = try await topLevel.next(in: topLog) { $0.dataStatus == .fresh }
        let expectedTop = try await fixture.server.records(.comments(postId: "post-7"))
        #expect(top.records.map(\.id) == expectedTop.map(\.id))
        #expect(top.records.count == 3)
        #expect(top.records.allSatisfy { $0.parentId == nil && $0.postId == "post-7" })
        #expect(top.records.map(\.createdAt) == top.records.map(\.createdAt).sorted())

        let parent = try #require(top.records.first { $0.replyCount > 0 })
        let replies = fixture.client.comments.comments(postId: "post-7", parentId: parent.id)
        let (replyLog, replyToken) = replies.record()
        let answers = try await replies.next(in: replyLog) { $0.dataStatus == .fresh }
        let expectedReplies = try await fixture.server.records(.comments(postId: "post-7", parentId: parent.id))
        #expect(answers.records.map(\.id) == expectedReplies.map(\.id))
        #expect(answers.records.count == parent.replyCount)
        #expect(answers.records.allSatisfy { $0.parentId == parent.id })

        let newest = fixture.client.comments.comments(postId: "post-7", newestFirst: true)
        let (newestLog, newestToken) = newest.record()
        let reversed = try await newest.next(in: newestLog) { $0.dataStatus == .fresh }
        #expect(reversed.records.map(\.id) == expectedTop.reversed().map(\.id))
        #expect(reversed.records.map(\.id) == (try await fixture.server.records(.comments(postId: "post-7", newestFirst: true))).map(\.id))
        _ = (topToken, replyToken, newestToken)
    }

    @Test func deletedCommentsShowOnlyWhenIncluded() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let target = try #require(try await fixture.server.records(.comments(postId: "post-7")).first)
        _ = try await fixture.server.perform(.deleteComment(id: target.id), as: target.authorId)
        let visible = fixture.client.comments.comments(postId: "post-7")
        let all = fixture.client.comments.comments(postId: "post-7", includeDeleted: true)
        let (visibleLog, visibleToken) = visible.record()
        let (allLog, allToken) = all.record()
        let shown = try await visible.next(in: visibleLog) { $0.dataStatus == .fresh }
        let everything = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        #expect(shown.records.map(\.id) == (try await fixture.server.records(.comments(postId: "post-7"))).map(\.id))
        #expect(!shown.records.contains { $0.id == target.id })
        let expected = try await fixture.server.records(.comments(postId: "post-7", includeDeleted: true))
        #expect(everything.records.map(\.id) == expected.map(\.id))
        #expect(everything.records.first { $0.id == target.id }?.isDeleted == true)
        _ = (visibleToken, allToken)
    }

    @Test func pagingCommentsReachesEveryCommentOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        for number in 1...4 {
            _ = try await fixture.server.perform(.createComment(postId: "post-7", parentId: nil, text: "more \(number)"), as: "tim")
        }
        let expected = try await fixture.server.records(.comments(postId: "post-7"))
        #expect(expected.count == 7)
        let comments = fixture.client.comments.comments(postId: "post-7", pageSize: 2)
        let (log, token) = comments.record()
        let pages = try await comments.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [2, 4, 6, 7])
        let last = try #require(pages.last)
        #expect(last.records.map(\.id) == expected.map(\.id))
        #expect(Set(last.records.map(\.id)).count == expected.count)
        _ = token
    }

    @Test func aNewCommentIsPendingThenTheServersCommentNeverTwice() async throws {
        let fixture = try await ClientFixture()
        let comments = fixture.client.comments.comments(postId: "post-3")
        let post = fixture.client.posts.get(id: "post-3")
        let (log, token) = comments.record()
        let (postLog, postToken) = post.record()
        let fresh = try await comments.next(in: log) { $0.dataStatus == .fresh }
        let freshPost = try await post.next(in: postLog) { $0.dataStatus == .fresh }
        log.skipUnread()
        let created = try #require(try await fixture.client.comments.create(text: "nice post", postId: "post-3"))
        try await fixture.settle()
        _ = try await comments.next(in: log) { $0.records.last?.id == created.id }

        let deliveries = Array(log.all.dropFirst(log.all.firstIndex { $0.dataStatus == .fresh }! + 1))
        let pending = try #require(deliveries.first)
        #expect(pending.records.last?.text == "nice post")
        #expect(pending.records.last?.syncState == .syncing)
        #expect(pending.records.last?.id.hasPrefix("local-") == true)
        for delivery in deliveries {
            #expect(delivery.records.filter { $0.text == "nice post" }.count == 1)
        }
        let final = try #require(log.all.last)
        #expect(final.records.count == fresh.records.count + 1)
        #expect(final.records.last == (try await fixture.server.record(Comment.self, id: created.id)))
        #expect(final.records.last?.syncState == .synced)
        let counted = try await post.next(in: postLog) { $0.snapshot?.commentCount == (freshPost.snapshot?.commentCount ?? 0) + 1 }
        #expect(counted.snapshot?.commentCount == 1)
        _ = (token, postToken)
    }

    @Test func aReplyShowsInItsThreadAndCountsOnItsParent() async throws {
        let fixture = try await ClientFixture()
        let parent = try #require(try await fixture.server.records(.comments(postId: "post-7")).last)
        let replies = fixture.client.comments.comments(postId: "post-7", parentId: parent.id)
        let topLevel = fixture.client.comments.comments(postId: "post-7")
        let parentObject = fixture.client.comments.get(id: parent.id)
        let (log, token) = replies.record()
        let (topLog, topToken) = topLevel.record()
        let (parentLog, parentToken) = parentObject.record()
        let fresh = try await replies.next(in: log) { $0.dataStatus == .fresh }
        let top = try await topLevel.next(in: topLog) { $0.dataStatus == .fresh }
        _ = try await parentObject.next(in: parentLog) { $0.dataStatus == .fresh }
        log.skipUnread()
        let reply = try #require(try await fixture.client.comments.create(text: "agreed", postId: "post-7", parentId: parent.id))
        #expect(reply.parentId == parent.id)
        let pending = try await log.next()
        #expect(pending.records.last?.syncState == .syncing)
        let synced = try await replies.next(in: log) { $0.records.last?.id == reply.id }
        #expect(synced.records.count == fresh.records.count + 1)
        _ = try await parentObject.next(in: parentLog) { $0.snapshot?.replyCount == parent.replyCount + 1 }
        try await fixture.settle()
        #expect(topLevel.allObjects().map(\.id) == top.records.map(\.id))
        #expect(!topLog.all.contains { $0.records.contains { $0.text == "agreed" } })
        _ = (token, topToken, parentToken)
    }

    @Test func aCommentTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture()
        let comments = fixture.client.comments.comments(postId: "post-3")
        let (log, token) = comments.record()
        _ = try await comments.next(in: log) { $0.dataStatus == .fresh }
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) {
            try await fixture.client.comments.create(text: "lost", postId: "post-3")
        }
        let failed = try await comments.next(in: log) { $0.records.last?.syncState == .error }
        #expect(failed.records.last?.text == "lost")
        #expect(failed.records.count == 1)
        #expect(try await fixture.server.records(.comments(postId: "post-3")).isEmpty)
        _ = token
    }

    @Test func updateAndDeleteShowAtOnceThenSync() async throws {
        let fixture = try await ClientFixture()
        let created = try #require(try await fixture.client.comments.create(text: "draft", postId: "post-3"))
        let comments = fixture.client.comments.comments(postId: "post-3")
        let (log, token) = comments.record()
        _ = try await comments.next(in: log) { $0.dataStatus == .fresh }
        log.skipUnread()
        try await fixture.client.comments.update(created, text: "final")
        let pending = try await log.next()
        #expect(pending.records.first?.text == "final")
        #expect(pending.records.first?.syncState == .syncing)
        let synced = try await comments.next(in: log) { $0.records.first?.syncState == .synced }
        #expect(synced.records.first == (try await fixture.server.record(Comment.self, id: created.id)))

        log.skipUnread()
        try await fixture.client.comments.delete(try #require(synced.records.first))
        let gone = try await log.next()
        #expect(gone.records.isEmpty)
        #expect(gone.change?.deletions == [0])
        #expect(try await fixture.server.record(Comment.self, id: created.id)?.isDeleted == true)
        _ = token
    }

    @Test func anotherUsersCommentArrivesOnlyOnItsPost() async throws {
        let fixture = try await ClientFixture()
        let onSix = fixture.client.comments.comments(postId: "post-6")
        let onThree = fixture.client.comments.comments(postId: "post-3")
        let (sixLog, sixToken) = onSix.record()
        let (threeLog, threeToken) = onThree.record()
        let six = try await onSix.next(in: sixLog) { $0.dataStatus == .fresh }
        _ = try await onThree.next(in: threeLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.createComment(postId: "post-6", parentId: nil, text: "elsewhere"), as: "grace")
        _ = try await fixture.server.perform(.createComment(postId: "post-3", parentId: nil, text: "here"), as: "grace")
        let live = try await onThree.next(in: threeLog) { $0.records.last?.text == "here" }
        #expect(live.change?.insertions == [0])
        #expect(!live.records.contains { $0.text == "elsewhere" })
        let other = try await onSix.next(in: sixLog) { $0.records.last?.text == "elsewhere" }
        #expect(other.records.count == six.records.count + 1)
        #expect(!other.records.contains { $0.text == "here" })
        _ = (sixToken, threeToken)
    }

    /// Over a warm cache the window's first page ends at a cached row; over an empty one the
    /// first cache read leaves it open to the end, and the server's first page must close it at
    /// its last record. Either way the new comment stays outside until the list pages to it.
    @Test(arguments: [true, false])
    func aPartlyLoadedOldestFirstListGetsANewCommentOnlyAtItsEnd(warmCache: Bool) async throws {
        let fixture = try await ClientFixture()
        let all = try await fixture.server.records(.comments(postId: "post-7"))
        #expect(all.count == 3)
        if warmCache {
            // Every comment cached first, as a screen opened before would have.
            let warm = fixture.client.comments.comments(postId: "post-7")
            let (warmLog, warmToken) = warm.record()
            _ = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
            warmToken.invalidate()
        }
        let comments = fixture.client.comments.comments(postId: "post-7", pageSize: 2)
        let (log, token) = comments.record()
        let fresh = try await comments.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.records.map(\.id) == all.prefix(2).map(\.id))
        #expect(comments.hasNext)

        _ = try await fixture.server.perform(.createComment(postId: "post-7", parentId: nil, text: "latest word"), as: "tim")
        // The post's comment count is written after the comment: once it shows, the comment is in the cache.
        let counted = try await fixture.server.record(Post.self, id: "post-7")?.commentCount
        try await fixture.waitFor(Post.self, id: "post-7") { $0?.commentCount == counted }
        try await fixture.settle()
        #expect(!log.all.contains { $0.records.contains { $0.text == "latest word" } })
        #expect(comments.allObjects().map(\.id) == fresh.records.map(\.id))
        let pages = try await comments.loadAllPages(in: log)
        let last = try #require(pages.last)
        #expect(last.records.last?.text == "latest word")
        #expect(last.records.map(\.id) == (try await fixture.server.records(.comments(postId: "post-7"))).map(\.id))
        _ = token
    }

    @Test func aNewestFirstListGetsANewCommentAtTheTop() async throws {
        let fixture = try await ClientFixture()
        let comments = fixture.client.comments.comments(postId: "post-7", newestFirst: true, pageSize: 2)
        let (log, token) = comments.record()
        let fresh = try await comments.next(in: log) { $0.dataStatus == .fresh }
        #expect(comments.hasNext)
        _ = try await fixture.server.perform(.createComment(postId: "post-7", parentId: nil, text: "latest word"), as: "tim")
        let top = try await comments.next(in: log) { $0.records.first?.text == "latest word" }
        #expect(top.change?.insertions == [0])
        #expect(Array(top.records.dropFirst()) == fresh.records)
        _ = token
    }
}
