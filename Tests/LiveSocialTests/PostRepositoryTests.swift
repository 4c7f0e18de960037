import TestSupport
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct PostRepositoryTests {
    @Test func getShowsTheCachedPostFirstThenTheServersCopy() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let warm = fixture.client.posts.get(id: "post-4")
        let (warmLog, warmToken) = warm.record()
        let warmed = try await warm.next(in: warmLog) { $0.dataStatus == .fresh }
        #expect(warmed.snapshot?.text == (try await fixture.server.record(Post.self, id: "post-4"))?.text)
        // The server's copy changes behind the client's back (no real time).
        _ = try await fixture.server.perform(.updatePost(id: "post-4", text: "edited on the server"), as: "ada")

        let post = fixture.client.posts.get(id: "post-4")
        let (log, token) = post.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.snapshot == warmed.snapshot)
        let fresh = try await post.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.text == "edited on the server")
        #expect(fresh.loadingStatus == .loaded)
        _ = (warmToken, token)
    }

    @Test func getOfAnUnknownPostEndsAsNotExisting() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let post = fixture.client.posts.get(id: "post-404")
        let (log, token) = post.record()
        let answered = try await post.next(in: log) { $0.loadingStatus == .loaded }
        #expect(answered.dataStatus == .notExist)
        #expect(answered.snapshot == nil)
        _ = token
    }

    @Test func feedsShowTheServersPostsNewestFirst() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let queries: [(LiveCollection<Post>, SocialQuery<Post>)] = [
            (fixture.client.posts.communityFeed(communityId: "hiking"), .communityFeed(communityId: "hiking")),
            (fixture.client.posts.userFeed(userId: "ada"), .userFeed(userId: "ada")),
            (fixture.client.posts.posts(byAuthor: "alan"), .postsByAuthor("alan")),
        ]
        for (collection, query) in queries {
            let (log, token) = collection.record()
            let fresh = try await collection.next(in: log) { $0.dataStatus == .fresh }
            let expected = try await fixture.server.records(query)
            #expect(!expected.isEmpty)
            #expect(fresh.records.map(\.id) == expected.map(\.id))
            #expect(fresh.records.map(\.createdAt) == fresh.records.map(\.createdAt).sorted(by: >))
            _ = token
        }
        let hiking = try await fixture.server.records(.communityFeed(communityId: "hiking"))
        #expect(hiking.allSatisfy { $0.targetType == .community && $0.targetId == "hiking" })
        let byAlan = try await fixture.server.records(.postsByAuthor("alan"))
        #expect(byAlan.allSatisfy { $0.authorId == "alan" })
        #expect(Set(byAlan.map(\.targetType)) == [.community, .user])
    }

    @Test func deletedPostsShowOnlyWhenIncluded() async throws {
        let fixture = try await ClientFixture(realtime: false)
        _ = try await fixture.server.perform(.deletePost(id: "post-3"), as: "grace")
        let visible = fixture.client.posts.communityFeed(communityId: "swift")
        let (visibleLog, visibleToken) = visible.record()
        let shown = try await visible.next(in: visibleLog) { $0.dataStatus == .fresh }
        #expect(shown.records.map(\.id) == (try await fixture.server.records(.communityFeed(communityId: "swift"))).map(\.id))
        #expect(!shown.records.contains { $0.id == "post-3" })

        let all = fixture.client.posts.communityFeed(communityId: "swift", includeDeleted: true)
        let (allLog, allToken) = all.record()
        let everything = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        let expected = try await fixture.server.records(.communityFeed(communityId: "swift", includeDeleted: true))
        #expect(everything.records.map(\.id) == expected.map(\.id))
        #expect(everything.records.first { $0.id == "post-3" }?.isDeleted == true)
        #expect(everything.records.count == shown.records.count + 1)
        _ = (visibleToken, allToken)
    }

    @Test func pagingAFeedReachesEveryPostOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let all = try await fixture.server.records(.communityFeed(communityId: "swift", includeDeleted: true))
        #expect(all.count > 3)
        let feed = fixture.client.posts.communityFeed(communityId: "swift", includeDeleted: true, pageSize: 3)
        let (log, token) = feed.record()
        let pages = try await feed.loadAllPages(in: log)
        #expect(pages.count == 2)
        #expect(pages[0].records.count == 3)
        let last = try #require(pages.last)
        #expect(last.records.map(\.id) == all.map(\.id))
        #expect(Set(last.records.map(\.id)).count == last.records.count)
        #expect(!feed.hasNext)
        _ = token
    }

    @Test func aNewPostIsPendingThenReplacedByTheServersPostNeverTwice() async throws {
        let fixture = try await ClientFixture()
        let feed = fixture.client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        let fresh = try await feed.next(in: log) { $0.dataStatus == .fresh }
        log.skipUnread()
        let created = try #require(try await fixture.client.posts.create(text: "hello swift", in: .community, targetId: "swift"))
        try await fixture.settle()
        _ = try await feed.next(in: log) { $0.records.first?.id == created.id && $0.records.first?.syncState == .synced }

        let deliveries = Array(log.all.dropFirst(log.all.firstIndex { $0.dataStatus == .fresh }! + 1))
        let pending = try #require(deliveries.first)
        #expect(pending.records.first?.text == "hello swift")
        #expect(pending.records.first?.syncState == .syncing)
        #expect(pending.records.first?.id.hasPrefix("local-") == true)
        #expect(pending.change?.insertions == [0])
        for delivery in deliveries {
            #expect(delivery.records.filter { $0.text == "hello swift" }.count == 1)
        }
        let final = try #require(log.all.last)
        #expect(created.id.hasPrefix("post-"))
        #expect(final.records.count == fresh.records.count + 1)
        #expect(final.records.first == (try await fixture.server.record(Post.self, id: created.id)))
        #expect(!final.records.contains { $0.id.hasPrefix("local-") })
        let cached = try await fixture.client.store.read { try $0.query("SELECT id FROM posts WHERE id LIKE 'local-%'") { $0.string(0) } }
        #expect(cached.isEmpty)
        _ = token
    }

    @Test func aPostTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture()
        let feed = fixture.client.posts.userFeed(userId: "ada")
        let (log, token) = feed.record()
        let fresh = try await feed.next(in: log) { $0.dataStatus == .fresh }
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.serverFailure("simulated server failure")) {
            try await fixture.client.posts.create(text: "doomed", in: .user, targetId: "ada")
        }
        let pending = try await log.next()
        #expect(pending.records.first?.text == "doomed")
        #expect(pending.records.first?.syncState == .syncing)
        let failed = try await feed.next(in: log) { $0.records.first?.syncState == .error }
        #expect(failed.records.first?.text == "doomed")
        #expect(failed.records.count == fresh.records.count + 1)
        #expect(try await fixture.server.records(.userFeed(userId: "ada")).count == fresh.records.count)
        _ = token
    }

    @Test func updateAndDeleteShowAtOnceThenSync() async throws {
        let fixture = try await ClientFixture()
        let feed = fixture.client.posts.communityFeed(communityId: "swift")
        let (log, token) = feed.record()
        let fresh = try await feed.next(in: log) { $0.dataStatus == .fresh }
        let mine = try #require(fresh.records.first { $0.authorId == "ada" })
        let index = try #require(fresh.records.firstIndex(of: mine))
        log.skipUnread()

        try await fixture.client.posts.update(mine, text: "rewritten")
        let pending = try await log.next()
        #expect(pending.records[index].text == "rewritten")
        #expect(pending.records[index].syncState == .syncing)
        #expect(pending.change?.modifications == [index])
        let synced = try await feed.next(in: log) { $0.records[index].syncState == .synced }
        #expect(synced.records[index] == (try await fixture.server.record(Post.self, id: mine.id)))
        #expect(synced.records[index].text == "rewritten")

        log.skipUnread()
        try await fixture.client.posts.delete(synced.records[index])
        let hidden = try await log.next()
        #expect(!hidden.records.contains { $0.id == mine.id })
        #expect(hidden.change?.deletions == [index])
        try await fixture.settle()
        #expect(!(log.all.last?.records.contains { $0.id == mine.id } ?? true))
        #expect(try await fixture.server.record(Post.self, id: mine.id)?.isDeleted == true)
        _ = token
    }

    @Test func anotherUsersPostArrivesAtTheTopOfTheMatchingFeedOnly() async throws {
        let fixture = try await ClientFixture()
        let swift = fixture.client.posts.communityFeed(communityId: "swift")
        let hiking = fixture.client.posts.communityFeed(communityId: "hiking")
        let (swiftLog, swiftToken) = swift.record()
        let (hikingLog, hikingToken) = hiking.record()
        let swiftFresh = try await swift.next(in: swiftLog) { $0.dataStatus == .fresh }
        let hikingFresh = try await hiking.next(in: hikingLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "hiking", text: "trail report"), as: "alan")
        _ = try await fixture.server.perform(.createPost(targetType: .community, targetId: "swift", text: "macros!"), as: "alan")
        let live = try await swift.next(in: swiftLog) { $0.records.first?.text == "macros!" }
        #expect(live.change?.insertions == [0])
        #expect(live.records.count == swiftFresh.records.count + 1)
        #expect(!live.records.contains { $0.text == "trail report" })
        let other = try await hiking.next(in: hikingLog) { $0.records.first?.text == "trail report" }
        #expect(other.records.count == hikingFresh.records.count + 1)
        #expect(!other.records.contains { $0.text == "macros!" })
        _ = (swiftToken, hikingToken)
    }

    @Test func countsUpdateInALivePostThroughRealTime() async throws {
        let fixture = try await ClientFixture()
        let post = fixture.client.posts.get(id: "post-3")
        let (log, token) = post.record()
        let fresh = try await post.next(in: log) { $0.dataStatus == .fresh }
        let before = try #require(fresh.snapshot)
        _ = try await fixture.server.perform(.createComment(postId: "post-3", parentId: nil, text: "first!"), as: "tim")
        let commented = try await post.next(in: log) { $0.snapshot?.commentCount == before.commentCount + 1 }
        #expect(commented.snapshot?.reactionCount == before.reactionCount)
        _ = try await fixture.server.perform(.addReaction(targetType: .post, targetId: "post-3", name: "like"), as: "tim")
        let reacted = try await post.next(in: log) { $0.snapshot?.reactionCount == before.reactionCount + 1 }
        #expect(reacted.snapshot == (try await fixture.server.record(Post.self, id: "post-3")))
        _ = token
    }

    // MARK: A held token alone keeps the observation

    /// The screen of the issue report: it keeps only the token of `posts.get(id:).observe`.
    @MainActor
    final class PostScreen {
        var token: NotificationToken?
        let shown = Deliveries<ObjectDelivery<Post>>()
        private(set) weak var post: LiveObject<Post>?

        func show(_ client: SocialClient) {
            let post = client.posts.get(id: "post-4")
            self.post = post
            token = post.observe { [shown] post, error in
                shown.record(ObjectDelivery(dataStatus: post.dataStatus, loadingStatus: post.loadingStatus,
                                            snapshot: post.snapshot, error: error))
            }
        }
    }

    @Test func aScreenKeepingOnlyThePostsTokenSeesFreshDataAndLaterChanges() async throws {
        let fixture = try await ClientFixture()
        let screen = PostScreen()
        screen.show(fixture.client)
        let fresh = try await screen.shown.next { $0.dataStatus == .fresh }
        #expect(fresh.snapshot?.id == "post-4")
        _ = try await fixture.server.perform(.updatePost(id: "post-4", text: "edited by its author"), as: "ada")
        let edited = try await screen.shown.next { $0.snapshot?.text == "edited by its author" }
        #expect(edited.dataStatus == .fresh)
        #expect(screen.post != nil)

        screen.token = nil
        #expect(screen.post == nil)
        _ = try await fixture.server.perform(.updatePost(id: "post-4", text: "edited again"), as: "ada")
        try await fixture.settle()
        #expect(screen.shown.unread == 0)
    }

    @Test func aScreenKeepingOnlyTheFeedsTokenSeesFreshRowsAndNewPosts() async throws {
        let fixture = try await ClientFixture()
        let shown = Deliveries<[String]>()
        weak var feed: LiveCollection<Post>?
        var token: NotificationToken? = {
            let collection = fixture.client.posts.communityFeed(communityId: "hiking")
            feed = collection
            return collection.observe { collection, _, _ in
                if collection.dataStatus == .fresh { shown.record(collection.allObjects().map(\.id)) }
            }
        }()
        let first = try await shown.next()
        #expect(first == (try await fixture.server.records(.communityFeed(communityId: "hiking"))).map(\.id))
        let created = try await fixture.server.perform(
            .createPost(targetType: .community, targetId: "hiking", text: "trail report"), as: "alan")
        let id = try #require(created.first(Post.self)?.id)
        let grown = try await shown.next { $0.first == id }
        #expect(grown.count == first.count + 1)
        #expect(feed != nil)

        token = nil
        #expect(feed == nil)
        _ = try await fixture.server.perform(
            .createPost(targetType: .community, targetId: "hiking", text: "another"), as: "alan")
        try await fixture.settle()
        #expect(shown.unread == 0)
        _ = token
    }
}
