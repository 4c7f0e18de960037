import Foundation
import LiveRepository
import LiveSocial

/// An older version's data folder: one `cache.sqlite` at the top, shared by every user, and
/// `read-markers.json` beside it.
enum LegacyCache {
    /// Writes the older version's cache into `folder` as an app killed after its last commit
    /// leaves it: the database file and its write-ahead log, the records in the log only.
    ///
    /// - Parameters:
    ///   - messages: the messages in it (pending ones have a sync state other than `synced`).
    ///   - reactions: the reactions in it.
    ///   - readMarkers: the read markers beside it, or nil for no file.
    static func write(
        in folder: URL, messages: [Message], reactions: [Reaction] = [], readMarkers: String? = #"{"general":3}"#
    ) async throws {
        let staging = folder.appendingPathComponent("staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let url = staging.appendingPathComponent("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: LiveSocialSchema.migrations)
        try await store.write { transaction in
            _ = try transaction.upsert(contentsOf: messages)
            _ = try transaction.upsert(contentsOf: reactions)
        }
        // Copied while the store is open: the records are in the log, not yet in the database file.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: url.path + suffix, toPath: folder.appendingPathComponent("cache.sqlite").path + suffix)
        }
        await store.close()
        if let readMarkers {
            try Data(readMarkers.utf8).write(to: folder.appendingPathComponent("read-markers.json"))
        }
    }

    /// A message in `general` by `userId`.
    static func message(_ id: String, by userId: String, _ state: SyncState = .synced) -> Message {
        Message(id: id, clientRequestId: id, channelId: "general", userId: userId, text: "words of \(id)",
                createdAt: 1_700_000_000, updatedAt: 1_700_000_000, syncState: state)
    }

    /// A reaction by `userId` on a post.
    static func reaction(by userId: String, _ state: SyncState) -> Reaction {
        Reaction(id: Reaction.makeID(targetType: .post, targetId: "p1", userId: userId, name: "like"),
                 targetType: .post, targetId: "p1", userId: userId, name: "like", createdAt: 1_700_000_000, syncState: state)
    }

    /// The ids of the messages in the cache at `url` whose sync state is not `synced`, with their senders, sorted.
    static func unsentMessages(in url: URL) throws -> [String] {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        return try database.query("SELECT id, userId FROM messages WHERE syncState <> 'synced' ORDER BY id") {
            "\($0.string(0)) by \($0.string(1))"
        }
    }

    /// The ids of every message in the cache at `url`, sorted.
    static func messageIDs(in url: URL) throws -> [String] {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        return try database.query("SELECT id FROM messages ORDER BY id") { $0.string(0) }
    }

    /// The users who have a reaction in the cache at `url` whose sync state is not `synced`, sorted.
    static func unsentReactions(in url: URL) throws -> [String] {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        return try database.query("SELECT userId FROM reactions WHERE syncState <> 'synced' ORDER BY userId") { $0.string(0) }
    }
}
