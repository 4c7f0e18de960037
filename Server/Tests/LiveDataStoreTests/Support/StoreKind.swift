import LiveDataPostgres
import LiveSocialServer
import ServerTestSupport

/// The stores the contract suite runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }
}

/// An ``EmbeddedServer`` on a new, empty store of one kind; ``close()`` throws the store away.
struct StoreFixture {
    let server: EmbeddedServer
    let location: PostgresLocation?
    private let store: PostgresServerStore?
    /// The cluster's own database, when not the one of `LIVEDATA_TEST_POSTGRES`.
    var cluster: PostgresLocation? = nil

    /// A server on a new store, with a manual clock and a fixed epoch, so that both kinds hand
    /// out the same timestamps.
    static func make(
        _ kind: StoreKind, epoch: Double = 1_700_000_000, cluster: PostgresLocation? = nil
    ) async throws -> StoreFixture {
        switch kind {
        case .sqlite:
            let server = try EmbeddedServer(location: .inMemory, clock: ManualClock(), epoch: epoch, externalChanges: .off)
            return StoreFixture(server: server, location: nil, store: nil)
        case .postgres:
            let location = try await TestPostgres.makeDatabase(in: cluster)
            let store = try await PostgresServerStore.open(location)
            let server = try await EmbeddedServer(store: store, clock: ManualClock(), epoch: epoch)
            return StoreFixture(server: server, location: location, store: store, cluster: cluster)
        }
    }

    /// Another server (instance) on the same PostgreSQL database.
    func secondInstance(epoch: Double = 1_700_000_000) async throws -> (EmbeddedServer, PostgresServerStore) {
        guard let location else { preconditionFailure("a second instance needs PostgreSQL") }
        let store = try await PostgresServerStore.open(location)
        return (try await EmbeddedServer(store: store, clock: ManualClock(), epoch: epoch), store)
    }

    func close() async {
        if let store {
            let closing = store
            try? await store.thread.perform { closing.close() }
        }
        if let location { await TestPostgres.dropDatabase(location, in: cluster) }
    }
}
