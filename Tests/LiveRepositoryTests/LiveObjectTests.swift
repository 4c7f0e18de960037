import TestSupport
import Foundation
@testable import LiveRepository
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveObjectTests {
    typealias Delivery = (status: DataStatus, loading: LoadingStatus, snapshot: Note?, error: String?)

    func observe(_ object: LiveObject<Note>) -> (Deliveries<Delivery>, NotificationToken) {
        let log = Deliveries<Delivery>()
        let token = object.observe { object, error in
            log.record((object.dataStatus, object.loadingStatus, object.snapshot, error.map { "\($0)" }))
        }
        return (log, token)
    }

    /// Observes `object` once, when `condition` is met, recording the delivery.
    func observeOnce(_ object: LiveObject<Note>, _ condition: ObserveOnceCondition = .firstDelivery)
        -> (Deliveries<Delivery>, NotificationToken) {
        let once = Deliveries<Delivery>()
        let token = object.observeOnce(condition) { object, error in
            once.record((object.dataStatus, object.loadingStatus, object.snapshot, error.map { "\($0)" }))
        }
        return (once, token)
    }

    func serverObject(_ store: LiveStore, id: String) -> (LiveObject<Note>, RecordServer<Note>) {
        let server = RecordServer<Note>()
        let object = LiveObject<Note>(store: store, id: id, fetch: { try await server.fetch() })
        return (object, server)
    }

    @Test func aServerFailureBeforeTheCacheAnswersWaitsForTheCachedRecord() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        // Hold the store's queue so the cache read cannot run before the server fails.
        let gate = holdQueue(of: store)
        let failed = Deliveries<Void>()
        let object = LiveObject<Note>(store: store, id: "a", fetch: {
            await MainActor.run { failed.record(()) }
            throw TestServerError()
        })
        let (log, token) = observe(object)
        try await failed.next()
        await Task.yield()
        #expect(log.unread == 0)
        gate.signal()
        let first = try await log.next()
        #expect(first.status == .local)
        #expect(first.snapshot?.body == "cached")
        let second = try await log.next()
        #expect(second.status == .local)
        #expect(second.loading == .error)
        #expect(second.error != nil)
        _ = token
    }

    @Test func cachedRecordComesFirstAsLocalThenFreshFromTheServer() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        let local = try await log.next()
        #expect(local.status == .local)
        #expect(local.loading == .loading)
        #expect(local.snapshot?.body == "cached")
        #expect(await server.requestCount == 1)

        await server.answer(.success(Note(id: "a", rank: 1, body: "from server")))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.loading == .loaded)
        #expect(fresh.snapshot?.body == "from server")
        #expect(fresh.error == nil)
        // The server's record was written to the cache.
        let stored = try await store.write { try $0.record(Note.self, id: "a") }
        #expect(stored?.body == "from server")
        await settle(store)
        #expect(log.unread == 0)
        _ = token
    }

    @Test func withoutCacheTheServerAnswerIsTheOnlyDelivery() async throws {
        let store = try await makeNoteStore()
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        await settle(store)
        #expect(log.unread == 0)
        #expect(object.dataStatus == .notExist)
        #expect(object.loadingStatus == .loading)
        await server.answer(.success(Note(id: "a", rank: 1, body: "new")))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.loading == .loaded)
        #expect(fresh.snapshot == Note(id: "a", rank: 1, body: "new"))
        await settle(store)
        #expect(log.all.count == 1)
        _ = token
    }

    @Test func serverReturningNothingMeansNotExistAndRemovesTheCachedRow() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1), Note(id: "b", rank: 2)])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        #expect(try await log.next().status == .local)
        await server.answer(.success(nil))
        let gone = try await log.next()
        #expect(gone.status == .notExist)
        #expect(gone.loading == .loaded)
        #expect(gone.snapshot == nil)
        #expect(try await noteIDs(in: store) == ["b"])
        _ = token
    }

    @Test func serverFailureKeepsTheLocalSnapshot() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        #expect(try await log.next().status == .local)
        await server.answer(.failure(TestServerError()))
        let failed = try await log.next()
        #expect(failed.status == .local)
        #expect(failed.loading == .error)
        #expect(failed.snapshot?.body == "cached")
        #expect(failed.error != nil)
        #expect(object.error is TestServerError)
        #expect(try await noteIDs(in: store) == ["a"])
        _ = token
    }

    @Test func afterAFailureTheStaleErrorIsNotDeliveredAgain() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        _ = try await log.next()
        await server.answer(.failure(TestServerError()))
        #expect(try await log.next().loading == .error)
        // A reload of the same record from the cache is not news: the error stays, unchanged.
        try await store.write { try $0.execute("UPDATE notes SET rank = rank", touching: "notes") }
        await settle(store)
        #expect(log.unread == 0)
        #expect(object.error is TestServerError)
        // Asking again: the move to loading calls no one, though the old error is still set.
        object.refresh()
        #expect(object.loadingStatus == .loading)
        #expect(log.unread == 0)
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        let fresh = try await log.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.error == nil)
        _ = token
    }

    @Test func serverFailureWithNothingLocalIsAnErrorStatus() async throws {
        let store = try await makeNoteStore()
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        await server.answer(.failure(TestServerError()))
        let failed = try await log.next()
        #expect(failed.status == .error)
        #expect(failed.loading == .error)
        #expect(failed.snapshot == nil)
        #expect(failed.error != nil)
        _ = token
    }

    @Test func aLaterWriteDeliversTheNewSnapshot() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "one")])
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let (log, token) = observe(object)
        let first = try await log.next()
        #expect(first.status == .local)
        #expect(first.loading == .notLoading)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "two")) }
        let second = try await log.next()
        #expect(second.snapshot?.body == "two")
        #expect(second.status == .local)
        // A fresh status stays fresh across later writes.
        try await store.write { try $0.delete(Note.self, id: "a") }
        let deleted = try await log.next()
        #expect(deleted.snapshot == nil)
        #expect(deleted.status == .notExist)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "back")) }
        #expect(try await log.next().snapshot?.body == "back")
        _ = token
    }

    @Test func freshStatusStaysFreshAfterALocalWrite() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        _ = try await log.next()
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        #expect(try await log.next().status == .fresh)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "real-time")) }
        let update = try await log.next()
        #expect(update.status == .fresh)
        #expect(update.snapshot?.body == "real-time")
        _ = token
    }

    @Test func writingAnIdenticalRecordOrAnotherIDDeliversNothing() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "same"), Note(id: "b", rank: 2)])
        let a = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let b = LiveObject<Note>(store: store, id: "b", fetch: nil)
        let (logA, tokenA) = observe(a)
        let (logB, tokenB) = observe(b)
        _ = try await logA.next()
        _ = try await logB.next()

        let changed = try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "same")) }
        #expect(changed == false)
        try await store.write { try $0.upsert(Note(id: "b", rank: 2, body: "changed")) }
        try await store.write { try $0.upsert(Note(id: "c", rank: 3)) }
        #expect(try await logB.next().snapshot?.body == "changed")
        await settle(store)
        #expect(logA.unread == 0)
        #expect(logB.unread == 0)
        #expect(logA.all.count == 1)
        _ = (tokenA, tokenB)
    }

    @Test func observeOnceFiresOnceWithLocalData() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (once, token) = observeOnce(object)
        let (log, keep) = observe(object)
        #expect(try await once.next().status == .local)
        #expect(!token.isValid)
        _ = try await log.next()
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        #expect(try await log.next().status == .fresh)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "later")) }
        _ = try await log.next()
        #expect(once.all.count == 1)
        _ = (token, keep)
    }

    @Test func observeOnceFreshSkipsTheLocalDelivery() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (once, token) = observeOnce(object, .fresh)
        let (log, keep) = observe(object)
        #expect(try await log.next().status == .local)
        #expect(once.all.isEmpty)
        #expect(token.isValid)
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        let fresh = try await once.next()
        #expect(fresh.status == .fresh)
        #expect(fresh.snapshot?.body == "server")
        #expect(!token.isValid)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "later")) }
        _ = try await log.next()
        _ = try await log.next()
        #expect(once.all.count == 1)
        _ = (token, keep)
    }

    @Test func observeOnceFreshEndsWithTheServerError() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1)])
        let (object, server) = serverObject(store, id: "a")
        let (once, token) = observeOnce(object, .fresh)
        let (log, keep) = observe(object)
        #expect(try await log.next().status == .local)
        #expect(once.all.isEmpty)
        await server.answer(.failure(TestServerError()))
        let failed = try await once.next()
        #expect(failed.error != nil)
        #expect(failed.loading == .error)
        #expect(failed.status == .local)
        #expect(once.all.count == 1)
        _ = (token, keep)
    }

    @Test func observingLaterDeliversTheCurrentStateAtOnce() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let (object, server) = serverObject(store, id: "a")
        let (first, keep) = observe(object)
        _ = try await first.next()
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        _ = try await first.next()

        let (late, token) = observe(object)
        // Delivered synchronously, inside observe.
        #expect(late.unread == 1)
        let current = try await late.next()
        #expect(current.status == .fresh)
        #expect(current.loading == .loaded)
        #expect(current.snapshot?.body == "server")
        _ = (keep, token)
    }

    @Test func refreshAsksTheServerAgain() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "v1")])
        let (object, server) = serverObject(store, id: "a")
        let (log, token) = observe(object)
        _ = try await log.next()
        await server.answer(.success(Note(id: "a", rank: 1, body: "v2")))
        #expect(try await log.next().snapshot?.body == "v2")
        object.refresh()
        #expect(object.loadingStatus == .loading)
        await server.answer(.success(Note(id: "a", rank: 1, body: "v3")))
        let again = try await log.next()
        #expect(again.snapshot?.body == "v3")
        #expect(again.loading == .loaded)
        #expect(await server.requestCount == 2)
        _ = token
    }

    /// The live object's side of c7393e3 (issue 24): a server answer read before a change to the
    /// record (a real-time event, say) but stored after it undid the change, in the snapshot and
    /// in the cache, and brought back a record the change deleted.
    @Test func aServerAnswerDoesNotUndoChangesMadeWhileItWasOnItsWay() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached"), Note(id: "b", rank: 2, body: "cached")])
        let (edited, editedServer) = serverObject(store, id: "a")
        let (editedLog, editedToken) = observe(edited)
        #expect(try await editedLog.next().snapshot?.body == "cached")
        await editedServer.awaitRequest()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "edited")) }
        _ = try await editedLog.next { $0.snapshot?.body == "edited" }
        // The answer as the server read it, before the edit.
        await editedServer.answer(.success(Note(id: "a", rank: 1, body: "cached")))
        let fresh = try await editedLog.next { $0.loading == .loaded }
        #expect(fresh.status == .fresh)
        #expect(fresh.snapshot?.body == "edited")
        #expect(try await store.write { try $0.record(Note.self, id: "a") }?.body == "edited")

        let (deleted, deletedServer) = serverObject(store, id: "b")
        let (deletedLog, deletedToken) = observe(deleted)
        #expect(try await deletedLog.next().snapshot?.body == "cached")
        await deletedServer.awaitRequest()
        try await store.write { _ = try $0.delete(Note.self, id: "b") }
        _ = try await deletedLog.next { $0.snapshot == nil }
        await deletedServer.answer(.success(Note(id: "b", rank: 2, body: "cached")))
        let gone = try await deletedLog.next { $0.loading == .loaded }
        #expect(gone.status == .notExist)
        #expect(gone.snapshot == nil)
        #expect(try await store.write { try $0.record(Note.self, id: "b") } == nil)

        // An answer to a request made after the change is stored as usual.
        edited.refresh()
        await editedServer.answer(.success(Note(id: "a", rank: 1, body: "server")))
        #expect(try await editedLog.next { $0.loading == .loaded }.snapshot?.body == "server")
        #expect(try await store.write { try $0.record(Note.self, id: "a") }?.body == "server")
        _ = (editedToken, deletedToken)
    }
}
