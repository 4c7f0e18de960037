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
}
