import LiveRepository
import Testing

@MainActor
@Suite struct LiveCollectionTests {
    typealias Delivery = (status: DataStatus, loading: LoadingStatus, ids: [String], change: CollectionChange?, error: String?)

    func makeStore(_ notes: [Note] = []) async throws -> LiveStore {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
        if !notes.isEmpty { try await store.write { try $0.upsert(contentsOf: notes) } }
        return store
    }

    func observe(_ collection: LiveCollection<Note>) -> (Deliveries<Delivery>, NotificationToken) {
        let log = Deliveries<Delivery>()
        let token = collection.observe { collection, change, error in
            log.record((collection.dataStatus, collection.loadingStatus, collection.allObjects().map(\.id), change,
                        error.map { "\($0)" }))
        }
        return (log, token)
    }

    @Test func cachedRowsComeFirstThenTheServersPage() async throws {
        let store = try await makeStore(Note.numbered(30))
        let server = PageServer<Note>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let (log, token) = observe(collection)
        let local = await log.next()
        #expect(local.status == .local)
        #expect(local.ids == (1...20).map { "n\($0)" })
        #expect(collection.hasNext)
        var fresh = Note.numbered(20)
        fresh[0].body = "edited on the server"
        await server.answer(.success(RemotePage(records: fresh, nextCursor: "p2")))
        let second = await log.next()
        #expect(second.status == .fresh)
        #expect(second.loading == .loaded)
        #expect(second.change == CollectionChange(deletions: [], insertions: [], modifications: [0]))
        #expect(collection.object(at: 0)?.body == "edited on the server")
        _ = token
    }

    @Test func aServerFailureKeepsTheLocalRowsAndDeliversTheError() async throws {
        let store = try await makeStore(Note.numbered(3))
        let server = PageServer<Note>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let (log, token) = observe(collection)
        #expect(await log.next().status == .local)
        await server.answer(.failure(TestServerError()))
        let failed = await log.next()
        #expect(failed.status == .local)
        #expect(failed.loading == .error)
        #expect(failed.ids == ["n1", "n2", "n3"])
        #expect(failed.error != nil)
        _ = token
    }
}
