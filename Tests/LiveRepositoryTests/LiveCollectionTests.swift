import TestSupport
import Dispatch
@testable import LiveRepository
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveCollectionTests {
    typealias Delivery = (status: DataStatus, loading: LoadingStatus, ids: [String], change: CollectionChange?, error: String?)

    func observe(_ collection: LiveCollection<Note>) -> (Deliveries<Delivery>, NotificationToken) {
        let log = Deliveries<Delivery>()
        let token = collection.observe { collection, change, error in
            log.record((collection.dataStatus, collection.loadingStatus, collection.allObjects().map(\.id), change,
                        error.map { "\($0)" }))
        }
        return (log, token)
    }

    @Test func aServerFailureBeforeTheCacheAnswersWaitsForTheCachedRows() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        // Hold the store's queue so the cache read cannot run before the server fails.
        let gate = holdQueue(of: store)
        let failed = Deliveries<Void>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"),
            fetchPage: { _, _ in
                await MainActor.run { failed.record(()) }
                throw TestServerError()
            })
        let (log, token) = observe(collection)
        try await failed.next()
        await Task.yield()
        #expect(log.unread == 0)
        gate.signal()
        let first = try await log.next()
        #expect(first.status == .local)
        #expect(first.ids == ["n1", "n2", "n3"])
        let second = try await log.next()
        #expect(second.status == .local)
        #expect(second.loading == .error)
        _ = token
    }

    @Test func cachedRowsComeFirstThenTheServersPage() async throws {
        let store = try await makeNoteStore(Note.numbered(30))
        let server = PageServer<Note>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let (log, token) = observe(collection)
        let local = try await log.next()
        #expect(local.status == .local)
        #expect(local.ids == (1...20).map { "n\($0)" })
        #expect(collection.hasNext)
        var fresh = Note.numbered(20)
        fresh[0].body = "edited on the server"
        await server.answer(.success(RemotePage(records: fresh, nextCursor: "p2")))
        let second = try await log.next()
        #expect(second.status == .fresh)
        #expect(second.loading == .loaded)
        #expect(second.change == CollectionChange(deletions: [], insertions: [], modifications: [0]))
        #expect(collection.object(at: 0)?.body == "edited on the server")
        _ = token
    }

    @Test func aServerFailureKeepsTheLocalRowsAndDeliversTheError() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let server = PageServer<Note>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let (log, token) = observe(collection)
        #expect(try await log.next().status == .local)
        await server.answer(.failure(TestServerError()))
        let failed = try await log.next()
        #expect(failed.status == .local)
        #expect(failed.loading == .error)
        #expect(failed.ids == ["n1", "n2", "n3"])
        #expect(failed.error != nil)
        _ = token
    }

    func serverCollection(_ store: LiveStore, query: CacheQuery<Note> = CacheQuery<Note>(orderBy: "rank"),
                          pageSize: Int = 20, anchor: CollectionAnchor = .start) -> (LiveCollection<Note>, PageServer<Note>) {
        let server = PageServer<Note>()
        let collection = LiveCollection(store: store, query: query, pageSize: pageSize, anchor: anchor,
                                        fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        return (collection, server)
    }

    func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "n\($0)" } }

    @Test func noCacheThenTheServerPageIsTheFirstDelivery() async throws {
        let store = try await makeNoteStore()
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        await server.awaitRequest()
        await settle(store)
        #expect(log.unread == 0)
        #expect(collection.loadingStatus == .loading)
        #expect(collection.dataStatus == .notExist)
        await server.answer(.success(RemotePage(records: Note.numbered(5), nextCursor: nil)))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.loading == .loaded)
        #expect(fresh.ids == ids(1...5))
        #expect(!collection.hasNext)
        #expect(try await noteIDs(in: store) == ids(1...5))
        _ = token
    }

    /// Found by `LiveCollectionModelTests` (seed 3): a page the server served before a real-time
    /// deletion, stored after it, brought the deleted row back for good.
    @Test func aServerPageDoesNotUndoChangesMadeWhileItWasOnItsWay() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        await server.awaitRequest()
        #expect(try await log.next().ids == ids(1...3))
        // While the page is on its way, events write a newer n2, remove n3 and add n4.
        try await store.write { transaction in
            try transaction.upsert(Note(id: "n2", rank: 2, body: "edited"))
            _ = try transaction.delete(Note.self, id: "n3")
            try transaction.upsert(Note(id: "n4", rank: 4, body: "new"))
        }
        await settle(store)
        // The page as the server served it, before those changes.
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        let fresh = try await log.next(where: { $0.status == .fresh })
        #expect(fresh.ids == ["n1", "n2", "n4"])
        #expect(collection.object(at: 1)?.body == "edited")
        #expect(try await noteIDs(in: store) == ["n1", "n2", "n4"])
        // The next page is not protected by changes made before it was asked for.
        collection.resetPage()
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        let reset = try await log.next(where: { $0.loading == .loaded && $0.ids == ids(1...3) })
        #expect(reset.status == .fresh)
        #expect(collection.object(at: 1)?.body == "note 2")
        _ = token
    }

    /// Found by `LiveCollectionModelTests` (seed 33 of a long run): after a failed load, a row that
    /// came and went left the collection `.local` with nothing to show, or `.error`, depending on
    /// whether the two changes were read together.
    @Test func aFailedCollectionLeftWithNoRowsIsInErrorAgain() async throws {
        let store = try await makeNoteStore()
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        await server.answer(.failure(TestServerError()))
        #expect(try await log.next(where: { $0.loading == .error }).status == .error)
        try await store.write { try $0.upsert(Note(id: "n1", rank: 1)) }
        #expect(try await log.next(where: { $0.ids == ["n1"] }).status == .local)
        try await store.write { _ = try $0.delete(Note.self, id: "n1") }
        let emptied = try await log.next(where: { $0.ids.isEmpty })
        #expect(emptied.status == .error)
        #expect(emptied.loading == .error)
        #expect(collection.dataStatus == .error)
        _ = token
    }

    @Test func theServerIsAskedForPagesOfTwentyByDefault() async throws {
        let store = try await makeNoteStore(Note.numbered(50))
        let limits = LimitLog()
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: { cursor, limit in
            await limits.add(limit)
            return RemotePage(records: Note.numbered(20), nextCursor: "p2")
        })
        #expect(collection.pageSize == 20)
        let (log, token) = observe(collection)
        let delivery = try await log.next(where: { $0.status == .fresh })
        #expect(delivery.ids == ids(1...20))
        #expect(await limits.values == [20])
        _ = token
    }

    @Test func aCustomPageSize() async throws {
        let store = try await makeNoteStore(Note.numbered(12))
        let (collection, server) = serverCollection(store, pageSize: 5)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(1...5))
        #expect(collection.hasNext)
        await server.answer(.success(RemotePage(records: Note.numbered(5), nextCursor: "p2")))
        #expect(try await log.next().status == .fresh)
        collection.nextPage()
        #expect(try await log.next().ids == ids(1...10))
        await server.answer(.success(RemotePage(records: Array(Note.numbered(10)[5...]), nextCursor: "p3")))
        #expect(try await log.next().loading == .loaded)
        #expect(await server.requests == [nil, "p2"])
        _ = token
    }

    @Test func nextPageExtendsFromTheCacheThenTheServerPageLands() async throws {
        let store = try await makeNoteStore(Note.numbered(50))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(1...20))
        await server.answer(.success(RemotePage(records: Note.numbered(20), nextCursor: "p2")))
        #expect(try await log.next().status == .fresh)

        collection.nextPage()
        let local = try await log.next()
        #expect(local.ids == ids(1...40))
        #expect(local.change == CollectionChange(insertions: Array(20..<40)))
        await server.awaitRequest()
        #expect(await server.requests == [nil, "p2"])
        #expect(collection.loadingStatus == .loading)

        var page = Array(Note.numbered(40)[20...])
        page[0].body = "changed"
        await server.answer(.success(RemotePage(records: page, nextCursor: "p3")))
        let landed = try await log.next()
        #expect(landed.status == .fresh)
        #expect(landed.loading == .loaded)
        #expect(landed.ids == ids(1...40))
        #expect(landed.change == CollectionChange(modifications: [20]))
        #expect(collection.object(at: 20)?.body == "changed")
        #expect(collection.hasNext)

        collection.nextPage()
        #expect(try await log.next().ids == ids(1...50))
        await server.awaitRequest()
        #expect(await server.requests == [nil, "p2", "p3"])
        _ = token
    }

    @Test func hasNextTurnsFalseOnceTheServerAndTheWindowReachTheEnd() async throws {
        let store = try await makeNoteStore(Note.numbered(25))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        _ = try await log.next()
        await server.answer(.success(RemotePage(records: Note.numbered(20), nextCursor: "p2")))
        _ = try await log.next()
        #expect(collection.hasNext)
        collection.nextPage()
        #expect(try await log.next().ids == ids(1...25))
        // All cached rows are shown, but the server may have more.
        #expect(collection.hasNext)
        await server.answer(.success(RemotePage(records: Array(Note.numbered(27)[20...]), nextCursor: nil)))
        let last = try await log.next()
        #expect(last.ids == ids(1...27))
        #expect(last.change == CollectionChange(insertions: [25, 26]))
        #expect(!collection.hasNext)
        #expect(!collection.hasPrevious)
        // Paging further does nothing.
        collection.nextPage()
        await settle(store)
        #expect(log.unread == 0)
        #expect(await server.requests == [nil, "p2"])
        _ = token
    }

    @Test func cacheOnlyCollectionHasNextUntilTheWindowReachesTheEnd() async throws {
        let store = try await makeNoteStore(Note.numbered(30))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        let first = try await log.next()
        #expect(first.ids == ids(1...20))
        #expect(first.status == .local)
        #expect(first.loading == .notLoading)
        #expect(collection.hasNext)
        collection.nextPage()
        #expect(try await log.next().ids == ids(1...30))
        #expect(!collection.hasNext)
        _ = token
    }

    @Test func anchorAtTheEndShowsTheLastRowsAndPagesBackwards() async throws {
        let store = try await makeNoteStore(Note.numbered(45))
        let (collection, server) = serverCollection(store, anchor: .end)
        let (log, token) = observe(collection)
        let first = try await log.next()
        #expect(first.ids == ids(26...45))
        #expect(collection.object(at: collection.count - 1)?.id == "n45")
        #expect(collection.object(at: 0)?.id == "n26")
        #expect(collection.hasPrevious)
        #expect(!collection.hasNext)
        // The server pages from the anchor: newest first.
        await server.answer(.success(RemotePage(records: Note.numbered(45)[25...].reversed(), nextCursor: "older")))
        #expect(try await log.next().status == .fresh)

        collection.nextPage()  // not for an end-anchored collection
        collection.previousPage()
        let older = try await log.next()
        #expect(older.ids == ids(6...45))
        #expect(older.change == CollectionChange(insertions: Array(0..<20)))
        await server.awaitRequest()
        #expect(await server.requests == [nil, "older"])
        await server.answer(.success(RemotePage(records: Note.numbered(25)[5...].reversed(), nextCursor: "oldest")))
        #expect(try await log.next().loading == .loaded)

        collection.previousPage()
        #expect(try await log.next().ids == ids(1...45))
        await server.answer(.success(RemotePage(records: Note.numbered(5).reversed(), nextCursor: nil)))
        #expect(try await log.next().loading == .loaded)
        #expect(!collection.hasPrevious)
        _ = token
    }

    @Test func anEndAnchoredWindowTakesNewRowsAtTheEnd() async throws {
        let store = try await makeNoteStore(Note.numbered(30))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), anchor: .end, fetchPage: nil)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(11...30))
        try await store.write { try $0.upsert(Note(id: "n31", rank: 31)) }
        let newest = try await log.next()
        #expect(newest.ids == ids(11...31))
        #expect(newest.change == CollectionChange(insertions: [20]))
        // Older than the window's first row: beyond the boundary, stays out.
        try await store.write { try $0.upsert(Note(id: "m0", rank: 0)) }
        await settle(store)
        #expect(log.unread == 0)
        #expect(collection.count == 21)
        _ = token
    }

    @Test func resetPageShrinksToTheFirstPageAndAsksForItAgain() async throws {
        let store = try await makeNoteStore(Note.numbered(50))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        _ = try await log.next()
        await server.answer(.success(RemotePage(records: Note.numbered(20), nextCursor: "p2")))
        _ = try await log.next()
        collection.nextPage()
        #expect(try await log.next().ids == ids(1...40))
        await server.answer(.success(RemotePage(records: Array(Note.numbered(40)[20...]), nextCursor: "p3")))
        _ = try await log.next()

        collection.resetPage()
        let shrunk = try await log.next()
        #expect(shrunk.ids == ids(1...20))
        #expect(shrunk.change == CollectionChange(deletions: Array(20..<40)))
        await server.awaitRequest()
        #expect(await server.requests == [nil, "p2", nil])
        await server.answer(.success(RemotePage(records: Note.numbered(20), nextCursor: "p2")))
        let fresh = try await log.next()
        #expect(fresh.loading == .loaded)
        #expect(fresh.ids == ids(1...20))
        collection.nextPage()
        #expect(try await log.next().ids == ids(1...40))
        await server.awaitRequest()
        #expect(await server.requests == [nil, "p2", nil, "p2"])
        _ = token
    }

    @Test func aServerPageDeletesStaleRowsInItsRangeButKeepsUnsyncedOnes() async throws {
        var cached = Note.numbered(6)
        cached.append(Note(id: "stale", rank: 3))
        cached.append(Note(id: "draft", rank: 4, syncState: .syncing))
        cached.append(Note(id: "failed", rank: 2, syncState: .error))
        cached.append(Note(id: "elsewhere", folder: "archive", rank: 3))
        let store = try await makeNoteStore(cached)
        let (collection, server) = serverCollection(store, query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"),
                                                    pageSize: 4)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ["n1", "failed", "n2", "n3"])
        // The first page ends at n4; "n5" and "n6" lie beyond it and are kept.
        let page = [Note(id: "n1", rank: 1), Note(id: "n3", rank: 3), Note(id: "n4", rank: 4)]
        await server.answer(.success(RemotePage(records: page, nextCursor: "p2")))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.ids == ["n1", "failed", "n3", "draft", "n4"])
        let remaining = try await noteIDs(in: store)
        #expect(remaining == ["n1", "failed", "elsewhere", "n3", "draft", "n4", "n5", "n6"])
        _ = token
    }

    @Test func theFirstServerPageEndsTheWindowAtItsLastRowWhenTheCacheReachedFurther() async throws {
        // The cache holds one row far down the list; the server's first page ends well before it.
        let store = try await makeNoteStore([Note(id: "n25", rank: 25)])
        let (collection, server) = serverCollection(store, pageSize: 4)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ["n25"])
        let page = (1...4).map { Note(id: "n\($0)", rank: $0) }
        await server.answer(.success(RemotePage(records: page, nextCursor: "p2")))
        let fresh = try await log.next(where: { $0.status == .fresh })
        // n5 to n24 are on the server but not loaded yet: showing n25 after n4 would hide them.
        #expect(fresh.ids == ids(1...4))
        #expect(collection.hasNext)
        _ = token
    }

    @Test func aServerPageThatLandsAfterAResetDoesNotMakeTheCollectionFresh() async throws {
        // A recovery that rebuilds the cache resets the pages (`resetPage()`); a page stored
        // before it may still move the window, but only the new first page makes it fresh.
        let store = try await makeNoteStore(Note.numbered(3))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        #expect(try await log.next().status == .local)
        let beforeWrite = holdQueue(of: store)
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: "p2")))
        try await untilTrue { collection.state.loading.held != nil }
        // The page's write is queued: hold the queue again behind it, so that the window read
        // its landing schedules waits until the reset.
        let beforeReach = holdQueue(of: store)
        beforeWrite.signal()
        try await untilTrue { collection.state.loading.jobs.isRunning }
        collection.resetPage()
        beforeReach.signal()
        await settle(store)
        #expect(collection.dataStatus == .local)
        #expect(collection.loadingStatus == .loading)
        #expect(!log.all.contains { $0.status == .fresh })
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        let fresh = try await log.next(where: { $0.status == .fresh })
        #expect(fresh.ids == ids(1...3))
        #expect(fresh.loading == .loaded)
        _ = token
    }

    /// Lets the main actor run other work until `condition` holds (at most 10,000 turns).
    func untilTrue(_ condition: () -> Bool) async throws {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
        try #require(condition())
    }

    @Test func theLastServerPageDeletesEverythingStaleAfterIt() async throws {
        let store = try await makeNoteStore(Note.numbered(8))
        let (collection, server) = serverCollection(store)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(1...8))
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        let fresh = try await log.next()
        #expect(fresh.ids == ids(1...3))
        #expect(fresh.change == CollectionChange(deletions: Array(3..<8)))
        #expect(try await noteIDs(in: store) == ids(1...3))
        _ = token
    }

    @Test func newRowsEnterOnlyInsideTheWindow() async throws {
        let store = try await makeNoteStore(Note.numbered(30))
        let query = CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank")
        let collection = LiveCollection(store: store, query: query, fetchPage: nil)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(1...20))

        // Inside the window: enters where it sorts ("m5" < "n5" breaks the tie).
        try await store.write { try $0.upsert(Note(id: "m5", rank: 5)) }
        let inside = try await log.next()
        #expect(Array(inside.ids[3...5]) == ["n4", "m5", "n5"])
        #expect(inside.change == CollectionChange(insertions: [4]))
        // At the anchor side.
        try await store.write { try $0.upsert(Note(id: "first", rank: 0)) }
        let top = try await log.next()
        #expect(top.ids.first == "first")
        #expect(top.change == CollectionChange(insertions: [0]))
        #expect(collection.count == 22)

        // Beyond the boundary of a partially loaded window, or not matching: no delivery.
        try await store.write { try $0.upsert(Note(id: "late", rank: 25)) }
        try await store.write { try $0.upsert(Note(id: "other", folder: "archive", rank: 3)) }
        await settle(store)
        #expect(log.unread == 0)
        #expect(collection.count == 22)

        // Moving a row out of the query removes it, reported at its old index.
        try await store.write { try $0.upsert(Note(id: "n3", folder: "archive", rank: 3)) }
        let moved = try await log.next()
        #expect(!moved.ids.contains("n3"))
        #expect(moved.change == CollectionChange(deletions: [3]))
        // And back in.
        try await store.write { try $0.upsert(Note(id: "n3", folder: "inbox", rank: 3)) }
        let back = try await log.next()
        #expect(back.ids[3] == "n3")
        #expect(back.change == CollectionChange(insertions: [3]))

        // Paging further shows the row that was beyond the boundary.
        collection.nextPage()
        let more = try await log.next()
        #expect(more.ids.contains("late"))
        _ = token
    }

    @Test func aWindowThatReachedTheEndTakesNewRowsAtTheFarEnd() async throws {
        let store = try await makeNoteStore(Note.numbered(5))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        #expect(try await log.next().ids == ids(1...5))
        try await store.write { try $0.upsert(Note(id: "n6", rank: 6)) }
        let next = try await log.next()
        #expect(next.ids == ids(1...6))
        #expect(next.change == CollectionChange(insertions: [5]))
        _ = token
    }

    @Test func afterAServerErrorUnrelatedChangesStillDeliverNothing() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let (collection, server) = serverCollection(store, query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"))
        let (log, token) = observe(collection)
        _ = try await log.next()
        await server.answer(.failure(TestServerError()))
        #expect(try await log.next().loading == .error)
        // The error stays set, but it is not news: nothing visible changes.
        try await store.write { try $0.upsert(Note(id: "x", folder: "archive", rank: 1)) }
        await settle(store)
        #expect(log.unread == 0)
        // Asking again is not news either until the server answers.
        collection.resetPage()
        await server.awaitRequest()
        await settle(store)
        #expect(log.unread == 0)
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.error == nil)
        #expect(collection.error == nil)
        _ = token
    }

    @Test func modificationsUseOldIndexes() async throws {
        let store = try await makeNoteStore(Note.numbered(5))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        _ = try await log.next()
        try await store.write { transaction in
            try transaction.delete(Note.self, id: "n1")
            try transaction.upsert(Note(id: "n3", rank: 3, body: "edited"))
        }
        let change = try await log.next()
        #expect(change.ids == ["n2", "n3", "n4", "n5"])
        #expect(change.change == CollectionChange(deletions: [0], modifications: [2]))
        #expect(collection.object(at: 1)?.body == "edited")

        // A move is a deletion plus an insertion, never a modification.
        try await store.write { try $0.upsert(Note(id: "n2", rank: 10, body: "moved")) }
        let move = try await log.next()
        #expect(move.ids == ["n3", "n4", "n5", "n2"])
        #expect(move.change == CollectionChange(deletions: [0], insertions: [3]))
        #expect(collection.object(at: 3)?.body == "moved")
        _ = token
    }

    @Test func anUnrelatedChangeDeliversNothing() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"),
                                        fetchPage: nil)
        let (log, token) = observe(collection)
        _ = try await log.next()
        try await store.write { try $0.upsert(Note(id: "x", folder: "archive", rank: 1)) }
        try await store.write { try $0.upsert(Note(id: "x", folder: "archive", rank: 2, body: "edited")) }
        try await store.write { try $0.delete(Note.self, id: "x") }
        try await store.write { try $0.upsert(Note.numbered(3)[0]) }  // identical
        await settle(store)
        #expect(log.unread == 0)
        _ = token
    }

    @Test func observeOnceFreshWaitsForTheServerPage() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let (collection, server) = serverCollection(store)
        let once = Deliveries<DataStatus>()
        let token = collection.observeOnce(.fresh) { collection, _, _ in once.record(collection.dataStatus) }
        let first = Deliveries<DataStatus>()
        let tokenFirst = collection.observeOnce { collection, _, _ in first.record(collection.dataStatus) }
        #expect(try await first.next() == .local)
        #expect(once.all.isEmpty)
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        #expect(try await once.next() == .fresh)
        try await store.write { try $0.upsert(Note(id: "n4", rank: 4)) }
        await settle(store)
        #expect(once.all.count == 1)
        #expect(first.all.count == 1)
        _ = (token, tokenFirst)
    }

    @Test func observingLaterDeliversTheCurrentRowsAtOnceWithoutAChange() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        _ = try await log.next()
        let (late, lateToken) = observe(collection)
        #expect(late.unread == 1)
        let current = try await late.next()
        #expect(current.ids == ids(1...3))
        #expect(current.change == nil)
        _ = (token, lateToken)
    }
}

actor LimitLog {
    private(set) var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
}
