import TestSupport
import Observation
@testable import LiveRepository
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveObservationTests {
    /// What an `onChange` saw when it ran (at willSet time).
    @MainActor final class Sightings {
        var objectStates: [(DataStatus, String?)] = []
        var collectionStates: [(DataStatus, Int)] = []
        var fired = 0
    }

    @Test func snapshotTrackingFiresWithOldValuesThenBothChangeTogether() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let server = RecordServer<Note>()
        let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
        let log = Deliveries<Void>()
        let token = object.observe { _, _ in log.record(()) }
        try await log.next()
        #expect(object.dataStatus == .local)

        let sightings = Sightings()
        withObservationTracking {
            _ = object.snapshot
        } onChange: {
            MainActor.assumeIsolated {
                sightings.fired += 1
                sightings.objectStates.append((object.dataStatus, object.snapshot?.body))
            }
        }
        await server.answer(.success(Note(id: "a", rank: 1, body: "fresh")))
        try await log.next()
        #expect(sightings.fired == 1)
        // willSet time: both old.
        #expect(sightings.objectStates.first?.0 == .local)
        #expect(sightings.objectStates.first?.1 == "cached")
        // Afterwards: both new.
        #expect(object.dataStatus == .fresh)
        #expect(object.snapshot?.body == "fresh")
        _ = token
    }

    @Test func everyMutationPairsStatusAndSnapshot() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "v0")])
        let server = RecordServer<Note>()
        let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
        let log = Deliveries<Void>()
        let token = object.observe { _, _ in log.record(()) }
        try await log.next()
        // Observed states before and after every mutation: each pair is one of the states
        // delivered, never a mix.
        let tracker = Tracker()
        tracker.track(object)
        await server.answer(.success(Note(id: "a", rank: 1, body: "v1")))
        try await log.next()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "v2")) }
        try await log.next()
        try await store.write { try $0.delete(Note.self, id: "a") }
        try await log.next()
        await settle(store)
        let seen = tracker.states
        // Old values at each willSet: local v0, then fresh v1, then fresh v2.
        #expect(seen == ["local/v0", "fresh/v1", "fresh/v2"])
        #expect(object.dataStatus == .notExist)
        #expect(object.snapshot == nil)
        _ = token
    }

    @Test func readingOnlyTheLoadingStatusIsNotified() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1)])
        let server = RecordServer<Note>()
        let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
        let log = Deliveries<Void>()
        let token = object.observe { _, _ in log.record(()) }
        try await log.next()
        await server.answer(.success(Note(id: "a", rank: 1, body: "fresh")))
        try await log.next()
        #expect(object.loadingStatus == .loaded)

        let sightings = Sightings()
        withObservationTracking {
            _ = object.loadingStatus
        } onChange: {
            MainActor.assumeIsolated { sightings.fired += 1 }
        }
        // The move to `.loading` calls no observe block, but it is an observable change.
        object.refresh()
        #expect(sightings.fired == 1)
        #expect(object.loadingStatus == .loading)
        #expect(log.unread == 0)
        await server.answer(.success(Note(id: "a", rank: 1, body: "fresh")))
        try await log.next()
        #expect(object.loadingStatus == .loaded)
        _ = token
    }

    @Test func collectionCountTrackingFiresWithOldValuesFirst() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let log = Deliveries<Int>()
        let token = collection.observe { collection, _, _ in log.record(collection.count) }
        #expect(try await log.next() == 3)

        let sightings = Sightings()
        withObservationTracking {
            _ = collection.count
        } onChange: {
            MainActor.assumeIsolated {
                sightings.fired += 1
                sightings.collectionStates.append((collection.dataStatus, collection.count))
            }
        }
        try await store.write { try $0.upsert(Note(id: "n4", rank: 4)) }
        #expect(try await log.next() == 4)
        #expect(sightings.fired == 1)
        #expect(sightings.collectionStates.first?.1 == 3)
        #expect(collection.count == 4)
        _ = token
    }

    @Test func collectionStatusAndRowsChangeTogether() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let server = PageServer<Note>()
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"),
                                        fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let log = Deliveries<Int>()
        let token = collection.observe { collection, _, _ in log.record(collection.count) }
        #expect(try await log.next() == 3)
        let sightings = Sightings()
        withObservationTracking {
            _ = collection.dataStatus
        } onChange: {
            MainActor.assumeIsolated {
                sightings.collectionStates.append((collection.dataStatus, collection.count))
            }
        }
        await server.answer(.success(RemotePage(records: Note.numbered(2), nextCursor: nil)))
        #expect(try await log.next() == 2)
        // At willSet the old pair, local with 3 rows; after, fresh with 2.
        #expect(sightings.collectionStates.count == 1)
        #expect(sightings.collectionStates.first?.0 == .local)
        #expect(sightings.collectionStates.first?.1 == 3)
        #expect(collection.dataStatus == .fresh)
        #expect(collection.count == 2)
        _ = token
    }
}

/// Tracks a live object's status and snapshot again after every change, recording at each
/// willSet what a reader sees.
@MainActor final class Tracker {
    var states: [String] = []

    func track(_ object: LiveObject<Note>) {
        withObservationTracking {
            _ = (object.dataStatus, object.snapshot)
        } onChange: { [self] in
            MainActor.assumeIsolated {
                states.append("\(object.dataStatus)/\(object.snapshot?.body ?? "nil")")
                Task { @MainActor in self.track(object) }
            }
        }
    }
}
