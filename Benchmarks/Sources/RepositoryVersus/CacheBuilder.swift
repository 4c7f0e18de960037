import Foundation
import LiveRepository
import LiveSocial

/// Fills a cache file through ``LiveStore``, the way a client's cache is filled, in large
/// write transactions.
enum CacheBuilder {
    /// Messages written per `store.write` transaction.
    static let batchSize = 50_000

    /// Writes `count` messages into `store`, each in the channel `channel(index)` names, oldest
    /// first. Returns the time spent in the `store.write` calls that upsert the messages, summed:
    /// making each batch of messages happens before its write's clock starts and is not counted.
    ///
    /// - Parameter pageCacheMiB: a larger SQLite page cache for the store's connection, so that
    ///   a large build does not reread index pages from the file; close the store afterwards.
    @MainActor
    static func fill(
        _ store: LiveStore, messages count: Int, seed: UInt64, pageCacheMiB: Int? = nil,
        channel: @escaping (Int) -> String
    ) async throws -> Duration {
        let clock = ContinuousClock()
        var spent = Duration.zero
        if let pageCacheMiB {
            try await store.write { try $0.connection.execute("PRAGMA cache_size = -\(pageCacheMiB * 1024)") }
        }
        var factory = MessageFactory(seed: seed)
        var written = 0
        while written < count {
            let size = min(batchSize, count - written)
            let offset = written
            let batch = factory.make(size) { channel(offset + $0) }
            let start = clock.now
            try await store.write { try $0.upsert(contentsOf: batch) }
            spent += start.duration(to: clock.now)
            written += size
        }
        return spent
    }

    /// Opens (creating) a cache file with the social schema.
    static func open(_ url: URL) throws -> LiveStore {
        try LiveStore(location: .file(url), migrations: LiveSocialSchema.migrations)
    }
}
