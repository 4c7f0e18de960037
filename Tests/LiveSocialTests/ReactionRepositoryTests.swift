import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ReactionRepositoryTests {
    @Test func reactionsMatchTheServerNewestFirstAndByName() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let all = fixture.client.reactions.reactions(on: .post, targetId: "post-10")
        let loves = fixture.client.reactions.reactions(on: .post, targetId: "post-10", name: "love")
        let (allLog, allToken) = all.record()
        let (lovesLog, lovesToken) = loves.record()
        let every = try await all.next(in: allLog) { $0.dataStatus == .fresh }
        let loved = try await loves.next(in: lovesLog) { $0.dataStatus == .fresh }
        let expected = try await fixture.server.records(.reactions(targetType: .post, targetId: "post-10"))
        #expect(expected.count == 5)
        #expect(every.records.map(\.id) == expected.map(\.id))
        #expect(every.records.map(\.createdAt) == every.records.map(\.createdAt).sorted(by: >))
        let expectedLoves = try await fixture.server.records(.reactions(targetType: .post, targetId: "post-10", name: "love"))
        #expect(loved.records.map(\.id) == expectedLoves.map(\.id))
        #expect(loved.records.count == 2)
        #expect(loved.records.allSatisfy { $0.name == "love" && $0.targetId == "post-10" })
        _ = (allToken, lovesToken)
    }

    @Test func pagingReactionsReachesEveryReactionOnce() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let expected = try await fixture.server.records(.reactions(targetType: .post, targetId: "post-10"))
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-10", pageSize: 2)
        let (log, token) = reactions.record()
        let pages = try await reactions.loadAllPages(in: log)
        #expect(pages.map(\.records.count) == [2, 4, 5])
        #expect(pages.last?.records.map(\.id) == expected.map(\.id))
        #expect(!reactions.hasNext)
        _ = token
    }

    @Test func addingAReactionShowsAtOnceThenSyncs() async throws {
        let fixture = try await ClientFixture()
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-1")
        let post = fixture.client.posts.get(id: "post-1")
        let (log, token) = reactions.record()
        let (postLog, postToken) = post.record()
        let fresh = try await reactions.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.records.isEmpty)
        _ = try await post.next(in: postLog) { $0.dataStatus == .fresh }
        log.skipUnread()
        try await fixture.client.reactions.add("like", to: .post, targetId: "post-1")
        let pending = try await log.next()
        #expect(pending.records.map(\.name) == ["like"])
        #expect(pending.records.first?.syncState == .syncing)
        let synced = try await reactions.next(in: log) { $0.records.first?.syncState == .synced }
        let id = Reaction.makeID(targetType: .post, targetId: "post-1", userId: "ada", name: "like")
        #expect(synced.records == [try #require(try await fixture.server.record(Reaction.self, id: id))])
        _ = try await post.next(in: postLog) { $0.snapshot?.reactionCount == 1 }
        _ = (token, postToken)
    }

    @Test func aReactionTheServerFailsStaysWithAnError() async throws {
        let fixture = try await ClientFixture()
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-1")
        let (log, token) = reactions.record()
        _ = try await reactions.next(in: log) { $0.dataStatus == .fresh }
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) {
            try await fixture.client.reactions.add("like", to: .post, targetId: "post-1")
        }
        let failed = try await reactions.next(in: log) { $0.records.first?.syncState == .error }
        #expect(failed.records.map(\.name) == ["like"])
        #expect(try await fixture.server.records(.reactions(targetType: .post, targetId: "post-1")).isEmpty)
        _ = token
    }

    @Test func removingAReactionHidesItAtOnce() async throws {
        let fixture = try await ClientFixture()
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-10")
        let (log, token) = reactions.record()
        let fresh = try await reactions.next(in: log) { $0.dataStatus == .fresh }
        let mine = try #require(fresh.records.first { $0.userId == "ada" })
        log.skipUnread()
        try await fixture.client.reactions.remove(mine.name, from: .post, targetId: "post-10")
        let removed = try await log.next()
        #expect(!removed.records.contains(mine))
        #expect(removed.records.count == fresh.records.count - 1)
        try await fixture.settle()
        #expect(reactions.allObjects() == removed.records)
        #expect(try await fixture.server.record(Reaction.self, id: mine.id) == nil)
        _ = token
    }

    @Test func aRemovalTheServerFailsIsRestored() async throws {
        let fixture = try await ClientFixture()
        let reactions = fixture.client.reactions.reactions(on: .post, targetId: "post-10")
        let (log, token) = reactions.record()
        let fresh = try await reactions.next(in: log) { $0.dataStatus == .fresh }
        let mine = try #require(fresh.records.first { $0.userId == "ada" })
        log.skipUnread()
        fixture.server.failRequests([.mutation])
        await #expect(throws: SocialAPIError.self) {
            try await fixture.client.reactions.remove(mine.name, from: .post, targetId: "post-10")
        }
        let removed = try await log.next()
        #expect(!removed.records.contains(mine))
        let restored = try await reactions.next(in: log) { $0.records.contains(mine) }
        #expect(restored.records == fresh.records)
        _ = token
    }

    @Test func anotherUsersReactionArrivesOnlyOnItsTarget() async throws {
        let fixture = try await ClientFixture()
        let onTen = fixture.client.reactions.reactions(on: .post, targetId: "post-10")
        let onOne = fixture.client.reactions.reactions(on: .post, targetId: "post-1")
        let (tenLog, tenToken) = onTen.record()
        let (oneLog, oneToken) = onOne.record()
        let ten = try await onTen.next(in: tenLog) { $0.dataStatus == .fresh }
        _ = try await onOne.next(in: oneLog) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.addReaction(targetType: .post, targetId: "post-10", name: "wow"), as: "margaret")
        _ = try await fixture.server.perform(.addReaction(targetType: .post, targetId: "post-1", name: "love"), as: "margaret")
        let live = try await onOne.next(in: oneLog) { !$0.records.isEmpty }
        #expect(live.records.map(\.name) == ["love"])
        #expect(live.change?.insertions == [0])
        let other = try await onTen.next(in: tenLog) { $0.records.first?.userId == "margaret" && $0.records.first?.name == "wow" }
        #expect(other.records.count == ten.records.count + 1)
        #expect(other.change?.insertions == [0])
        _ = try await fixture.server.perform(.removeReaction(targetType: .post, targetId: "post-1", name: "love"), as: "margaret")
        _ = try await onOne.next(in: oneLog) { $0.records.isEmpty }
        _ = (tenToken, oneToken)
    }
}
