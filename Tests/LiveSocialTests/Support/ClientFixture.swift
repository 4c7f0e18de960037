import TestSupport
import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// A seeded embedded server on a manual clock, and a client signed in as `ada` over an
/// in-memory cache.
@MainActor
struct ClientFixture {
    let clock = ManualClock()
    let server: EmbeddedServer
    let client: SocialClient

    init(userId: String = "ada", realtime: Bool = true, cache: SQLiteConnection.Location = .inMemory) async throws {
        server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: 1_700_000_000)
        try await server.seedDemoData()
        let stamps = Stamps()
        client = try await SocialClient.open(api: server.connection(userId: userId), userId: userId, cache: cache,
                                             now: { stamps.next() })
        if realtime { client.startRealtime() }
    }

    /// Waits for `rounds` round trips through the store's queue, so every write queued so far
    /// has committed and the chains of window reads it started (one per round) have been
    /// delivered to their observers.
    func settle(rounds: Int = 4) async throws {
        for _ in 0..<rounds {
            _ = try await client.store.read { _ in 0 }
        }
    }
}

/// What a collection observer saw in one delivery.
struct CollectionDelivery<Record: CacheRecord> {
    var dataStatus: DataStatus
    var loadingStatus: LoadingStatus
    var records: [Record]
    var change: CollectionChange?
    var error: (any Error)?
}

extension LiveCollection {
    /// Observes the collection into a `Deliveries` log.
    func record() -> (Deliveries<CollectionDelivery<Record>>, NotificationToken) {
        let log = Deliveries<CollectionDelivery<Record>>()
        let token = observe { collection, change, error in
            log.record(CollectionDelivery(dataStatus: collection.dataStatus, loadingStatus: collection.loadingStatus,
                                          records: collection.allObjects(), change: change, error: error))
        }
        return (log, token)
    }

    /// Waits for deliveries until one satisfies `condition`, and returns it.
    func next(
        in log: Deliveries<CollectionDelivery<Record>>, where condition: (CollectionDelivery<Record>) -> Bool
    ) async throws -> CollectionDelivery<Record> {
        try await log.next(where: condition)
    }
}
