import TestSupport
import LiveData
@testable import LiveRepository
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct NotificationTokenTests {
    final class Witness {}

    /// How a test ends a token: by invalidating it, or by releasing it.
    enum Ending: CaseIterable, Sendable { case invalidate, release }

    @Test(arguments: Ending.allCases)
    func endingTheTokenStopsTheBlock(_ ending: Ending) async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "v1")])
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let log = Deliveries<String?>()
        var token: NotificationToken? = object.observe { object, _ in log.record(object.snapshot?.body) }
        let control = Deliveries<String?>()
        let keep = object.observe { object, _ in control.record(object.snapshot?.body) }
        #expect(try await log.next() == "v1")
        _ = try await control.next()
        switch ending {
        case .invalidate:
            let live = try #require(token)
            #expect(live.isValid)
            live.invalidate()
            #expect(!live.isValid)
            live.invalidate()  // a second call does nothing
            #expect(!live.isValid)
        case .release:
            #expect(token != nil)
            token = nil
        }
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "v2")) }
        #expect(try await control.next() == "v2")
        await settle(store)
        #expect(log.all == ["v1"])
        _ = (keep, token)
    }

    @Test(arguments: Ending.allCases)
    func endingTheTokenReleasesWhatTheBlockCaptured(_ ending: Ending) async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "v1")])
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let control = Deliveries<String?>()
        let keep = object.observe { object, _ in control.record(object.snapshot?.body) }
        _ = try await control.next()
        weak var weakWitness: Witness?
        var token: NotificationToken?
        do {
            let witness = Witness()
            weakWitness = witness
            token = object.observe { _, _ in _ = witness }
        }
        #expect(weakWitness != nil)
        switch ending {
        case .invalidate:
            token?.invalidate()
        case .release:
            token = nil
        }
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "v2")) }
        _ = try await control.next()
        #expect(weakWitness == nil)
        if ending == .invalidate {
            #expect(token?.isValid == false)
        }
        _ = keep
    }

    @Test func collectionTokensStopToo() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let log = Deliveries<Int>()
        let token = collection.observe { collection, _, _ in log.record(collection.count) }
        let control = Deliveries<Int>()
        let keep = collection.observe { collection, _, _ in control.record(collection.count) }
        #expect(try await log.next() == 3)
        _ = try await control.next()
        token.invalidate()
        try await store.write { try $0.upsert(Note(id: "n4", rank: 4)) }
        #expect(try await control.next() == 4)
        await settle(store)
        #expect(log.all == [3])
        _ = keep
    }

    @Test func aFreshTokenIsValid() async throws {
        let store = try await makeNoteStore()
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let token = object.observe { _, _ in }
        #expect(token.isValid)
        #expect(token.lifecycle.state == .resumed)
        token.invalidate()
        #expect(token.lifecycle.state == .destroyed)
    }

    // MARK: A held token alone keeps its observation alive

    /// Observes a live object made here and kept by nobody but the token, as a screen that keeps
    /// only `token = repository.get(id:).observe { ... }` does.
    private func observeUnheldObject(
        _ store: LiveStore, server: RecordServer<Note>, log: Deliveries<String?>
    ) -> (NotificationToken, WeakBox<LiveObject<Note>>) {
        let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
        let token = object.observe { object, _ in log.record(object.snapshot?.body) }
        return (token, WeakBox(object))
    }

    @Test func aHeldTokenAloneKeepsALiveObjectLoadingAndUpdating() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let server = RecordServer<Note>()
        let log = Deliveries<String?>()
        let (token, object) = observeUnheldObject(store, server: server, log: log)
        #expect(try await log.next() == "cached")
        await server.answer(.success(Note(id: "a", rank: 1, body: "fresh")))
        #expect(try await log.next() == "fresh")
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "changed")) }
        #expect(try await log.next() == "changed")
        #expect(object.value != nil)
        #expect(token.isValid)

        // Invalidating the token frees the object, and the block is not called again.
        token.invalidate()
        #expect(object.value == nil)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "later")) }
        await settle(store)
        #expect(log.unread == 0)
    }

    @Test func releasingTheOnlyTokenFreesTheLiveObjectAndWhatTheBlockCaptured() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let log = Deliveries<String?>()
        weak var weakWitness: Witness?
        var (token, object): (NotificationToken?, WeakBox<LiveObject<Note>>) = {
            let witness = Witness()
            weakWitness = witness
            let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
            return (object.observe { object, _ in _ = witness; log.record(object.snapshot?.body) }, WeakBox(object))
        }()
        #expect(try await log.next() == "cached")
        #expect(object.value != nil && weakWitness != nil)
        token = nil
        #expect(object.value == nil)
        #expect(weakWitness == nil)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "later")) }
        await settle(store)
        #expect(log.unread == 0)
        _ = token
    }

    @Test func aHeldTokenAloneKeepsALiveCollectionLoadingAndUpdating() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let server = PageServer<Note>()
        let log = Deliveries<[String]>()
        var (token, collection): (NotificationToken?, WeakBox<LiveCollection<Note>>) = {
            let collection = LiveCollection(
                store: store, query: CacheQuery<Note>(orderBy: "rank"),
                fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
            let token = collection.observe { collection, _, _ in log.record(collection.allObjects().map(\.id)) }
            return (token, WeakBox(collection))
        }()
        #expect(try await log.next() == ["n1", "n2", "n3"])
        await server.answer(.success(RemotePage(records: Note.numbered(4), nextCursor: nil)))
        #expect(try await log.next() == ["n1", "n2", "n3", "n4"])
        try await store.write { try $0.upsert(Note(id: "n5", rank: 5)) }
        #expect(try await log.next() == ["n1", "n2", "n3", "n4", "n5"])
        #expect(collection.value != nil)

        token = nil
        #expect(collection.value == nil)
        try await store.write { try $0.upsert(Note(id: "n6", rank: 6)) }
        await settle(store)
        #expect(log.unread == 0)
        _ = token
    }

    @Test func anObserveOnceTokenKeepsTheObjectUntilItsOneCall() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let server = RecordServer<Note>()
        let log = Deliveries<String?>()
        let (token, object): (NotificationToken, WeakBox<LiveObject<Note>>) = {
            let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
            return (object.observeOnce(.fresh) { object, _ in log.record(object.snapshot?.body) }, WeakBox(object))
        }()
        await settle(store)
        #expect(object.value != nil)
        #expect(log.unread == 0)
        await server.answer(.success(Note(id: "a", rank: 1, body: "fresh")))
        #expect(try await log.next() == "fresh")
        #expect(!token.isValid)
        #expect(object.value == nil)
    }

    @Test func anObserveOnceCollectionTokenKeepsTheCollectionUntilItsOneCall() async throws {
        let store = try await makeNoteStore(Note.numbered(2))
        let server = PageServer<Note>()
        let log = Deliveries<Int>()
        let (token, collection): (NotificationToken, WeakBox<LiveCollection<Note>>) = {
            let collection = LiveCollection(
                store: store, query: CacheQuery<Note>(orderBy: "rank"),
                fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
            return (collection.observeOnce(.fresh) { collection, _, _ in log.record(collection.count) }, WeakBox(collection))
        }()
        await settle(store)
        #expect(collection.value != nil)
        await server.answer(.success(RemotePage(records: Note.numbered(3), nextCursor: nil)))
        #expect(try await log.next() == 3)
        #expect(!token.isValid)
        #expect(collection.value == nil)
    }

    /// A screen as the documentation writes it: it keeps only the token, and its block captures
    /// the screen weakly. Releasing the screen frees the token, the live object and the block.
    @MainActor
    final class WeaklyCapturingScreen {
        var token: NotificationToken?
        var shown: [String?] = []
        func show(_ store: LiveStore) -> WeakBox<LiveObject<Note>> {
            let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
            token = object.observe { [weak self] note, _ in self?.shown.append(note.snapshot?.body) }
            return WeakBox(object)
        }
    }

    @Test func aScreenThatCapturesItselfWeaklyIsFreedWithItsTokenAndLiveObject() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        var screen: WeaklyCapturingScreen? = WeaklyCapturingScreen()
        let object = screen!.show(store)
        await settle(store)
        #expect(screen?.shown == ["cached"])
        weak let weakScreen = screen
        screen = nil
        #expect(weakScreen == nil)
        #expect(object.value == nil)
    }
}
