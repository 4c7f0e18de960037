import Foundation
import LiveRepository

/// Moves an older version's shared cache into the per-user layout of the data folder.
///
/// Before each user had a folder, the sample kept one `cache.sqlite` (with its `-wal` and `-shm`)
/// and one `read-markers.json` at the top of the data folder, whoever signed in. The server's
/// records in it can be fetched again; what cannot is the *unsent* changes: messages, posts,
/// comments, reactions, follows and memberships written locally and not yet (or never) accepted
/// by the server, whose sync state is not `synced`. Each names its user (the sender, author,
/// follower or member), and that is how the cache's owner is known:
///
/// - **One user's unsent changes**: the cache and the read markers move to that user's folder,
///   and the outbox sends the changes when the user next signs in.
/// - **Several users' unsent changes**: each of them gets a copy holding only their own unsent
///   changes; the original and the read markers (whose they are is not known) stay in `legacy/`.
/// - **No unsent changes** (or only those of users the server does not know): nothing is lost
///   by starting over, so the files go to `legacy/` and each user's cache is rebuilt from the
///   server.
/// - **A cache that cannot be read**: it goes to `legacy/` too.
///
/// The server's database is never touched. The migration holds an exclusive lock on
/// `layout.lock` in the data folder, so two apps started at once on an old folder do not both
/// move the files; the second finds nothing left to do.
public enum LegacyCacheMigration {
    /// What a migration did.
    public struct Outcome: Sendable, Hashable {
        /// The user the whole cache moved to (with the read markers), when it was one user's.
        public var movedTo: String?
        /// The users who received a cache, with the number of their unsent changes in it.
        public var unsentByUser: [String: Int]
        /// Users with unsent changes who did not receive them: unknown to the server, or who
        /// already had a cache of the new layout. Their changes stay in ``legacyFolder``.
        public var unplaced: [String]
        /// Where the older files that found no owner were moved (`legacy`, or `legacy-2`… when
        /// that is taken), or nil when none were left.
        public var legacyFolder: URL?
        /// Why the cache could not be read, if it could not.
        public var problem: String?

        /// What happened, in words, for the launch screen.
        public var notice: String {
            let aside = legacyFolder.map { "\($0.lastPathComponent)/" } ?? "legacy/"
            if let problem {
                return "the older version's shared cache could not be read (\(problem)): moved to \(aside); rebuilt from the server"
            }
            var parts: [String] = []
            let placed = unsentByUser.keys.sorted()
            if let user = movedTo {
                parts.append("moved the older version's cache, with \(user)'s \(Self.changes(unsentByUser[user] ?? 0)), to users/\(user)/")
            } else if !placed.isEmpty {
                let each = placed.map { "\($0) (\(unsentByUser[$0] ?? 0))" }.joined(separator: ", ")
                parts.append("the older version's shared cache had unsent changes of \(each): each has their own copy now; the original is in \(aside)")
            } else if unplaced.isEmpty {
                parts.append("the older version's shared cache (no unsent changes) was moved to \(aside); rebuilt from the server")
            }
            if !unplaced.isEmpty {
                parts.append("the unsent changes of \(unplaced.joined(separator: ", ")) are only in \(aside)")
            }
            return parts.joined(separator: "; ")
        }

        private static func changes(_ count: Int) -> String {
            count == 1 ? "1 unsent change" : "\(count) unsent changes"
        }
    }

    /// The older version's cache in `dataFolder`.
    public static func legacyCacheURL(in dataFolder: URL) -> URL { dataFolder.appendingPathComponent("cache.sqlite") }

    /// The older version's read markers in `dataFolder`.
    public static func legacyReadMarkersURL(in dataFolder: URL) -> URL {
        dataFolder.appendingPathComponent("read-markers.json")
    }

    /// The tables whose records can be unsent changes, each with the column naming the user who made them.
    static let ownedTables = [
        ("messages", "userId"), ("posts", "authorId"), ("comments", "authorId"), ("reactions", "userId"),
        ("follows", "followerId"), ("channel_members", "userId"), ("community_members", "userId"),
    ]

    private static let sqliteSuffixes = ["", "-wal", "-shm"]

    /// Moves the older layout's files in `dataFolder`, if there are any, and says what it did.
    ///
    /// - Parameters:
    ///   - dataFolder: the data folder.
    ///   - knownUsers: the server's users: only they receive a cache.
    /// - Returns: what was done, or nil when the folder has no older layout.
    /// - Throws: ``SampleError/dataFolder(_:reason:)`` when a file cannot be moved or copied.
    public static func migrate(dataFolder: URL, knownUsers: Set<String>) throws -> Outcome? {
        guard hasLegacyFiles(in: dataFolder) else { return nil }
        do {
            let lock = try FileLock.lock(dataFolder.appendingPathComponent("layout.lock"), exclusive: true)
            defer { lock.unlock() }
            // Another app may have migrated while this one waited for the lock.
            guard hasLegacyFiles(in: dataFolder) else { return nil }
            return try migrateLocked(dataFolder: dataFolder, knownUsers: knownUsers)
        } catch let error as SampleError {
            throw error
        } catch {
            throw SampleError.dataFolder(dataFolder.path, reason: error.localizedDescription)
        }
    }

    private static func hasLegacyFiles(in dataFolder: URL) -> Bool {
        let files = sqliteSuffixes.map { legacyCacheURL(in: dataFolder).path + $0 } + [legacyReadMarkersURL(in: dataFolder).path]
        return files.contains { FileManager.default.fileExists(atPath: $0) }
    }

    private static func migrateLocked(dataFolder: URL, knownUsers: Set<String>) throws -> Outcome {
        let files = FileManager.default
        // First everything goes aside, so the top of the folder is clean whatever happens next.
        let legacy = freeLegacyFolder(in: dataFolder)
        try files.createDirectory(at: legacy, withIntermediateDirectories: true)
        let cache = legacy.appendingPathComponent("cache.sqlite")
        let markers = legacy.appendingPathComponent("read-markers.json")
        try moveSQLiteFile(legacyCacheURL(in: dataFolder), to: cache)
        if files.fileExists(atPath: legacyReadMarkersURL(in: dataFolder).path) {
            try files.moveItem(at: legacyReadMarkersURL(in: dataFolder), to: markers)
        }
        var outcome = Outcome(movedTo: nil, unsentByUser: [:], unplaced: [], legacyFolder: legacy, problem: nil)
        let unsent: [String: Int]
        do {
            unsent = files.fileExists(atPath: cache.path) ? try unsentChanges(in: cache) : [:]
        } catch {
            outcome.problem = "\(error)"
            return outcome
        }
        let owners = unsent.keys.sorted()
        var receivers: [String] = []
        for owner in owners {
            let destination = SampleConfiguration(dataFolder: dataFolder, userId: owner).cacheURL
            if knownUsers.contains(owner), !files.fileExists(atPath: destination.path) {
                receivers.append(owner)
            } else {
                outcome.unplaced.append(owner)
            }
        }
        if owners.count == 1, let owner = receivers.first {
            // The whole cache is one user's: it moves, read markers and all.
            let user = SampleConfiguration(dataFolder: dataFolder, userId: owner)
            try files.createDirectory(at: user.userFolder, withIntermediateDirectories: true)
            try moveSQLiteFile(cache, to: user.cacheURL)
            if files.fileExists(atPath: markers.path), !files.fileExists(atPath: user.readMarkersURL.path) {
                try files.moveItem(at: markers, to: user.readMarkersURL)
            }
            outcome.movedTo = owner
            outcome.unsentByUser[owner] = unsent[owner]
        } else {
            for owner in receivers {
                try copy(cache, keepingUnsentChangesOf: owner, to: SampleConfiguration(dataFolder: dataFolder, userId: owner))
                outcome.unsentByUser[owner] = unsent[owner]
            }
        }
        if (try? files.contentsOfDirectory(atPath: legacy.path))?.isEmpty == true {
            try files.removeItem(at: legacy)
            outcome.legacyFolder = nil
        }
        return outcome
    }

    /// `legacy` in the data folder, or `legacy-2`, `legacy-3`… when it is taken.
    private static func freeLegacyFolder(in dataFolder: URL) -> URL {
        var number = 1
        while true {
            let name = number == 1 ? "legacy" : "legacy-\(number)"
            let url = dataFolder.appendingPathComponent(name, isDirectory: true)
            if !FileManager.default.fileExists(atPath: url.path) { return url }
            number += 1
        }
    }

    /// Moves a SQLite file with its `-wal` and `-shm`, those that exist.
    private static func moveSQLiteFile(_ source: URL, to destination: URL) throws {
        for suffix in sqliteSuffixes where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.moveItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
    }

    /// The number of unsent changes in the cache at `url`, by the user who made them.
    ///
    /// Opening the file replays its write-ahead log, and closing it folds the log back in, so
    /// afterwards the cache is one file.
    static func unsentChanges(in url: URL) throws -> [String: Int] {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        var counts: [String: Int] = [:]
        for (table, column) in try presentOwnedTables(in: database) {
            let rows = try database.query(
                "SELECT \(column), count(*) FROM \(table) WHERE syncState <> 'synced' GROUP BY \(column)"
            ) { ($0.string(0), $0.int(1)) }
            for (user, count) in rows { counts[user, default: 0] += count }
        }
        return counts
    }

    /// The tables of ``ownedTables`` that `database` has, each with its user column.
    private static func presentOwnedTables(in database: SQLiteConnection) throws -> [(String, String)] {
        let tables = Set(try database.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(0) })
        return ownedTables.filter { tables.contains($0.0) }
    }

    /// Copies the cache at `source` to `user`'s cache, without the unsent changes of anyone else.
    private static func copy(_ source: URL, keepingUnsentChangesOf owner: String, to user: SampleConfiguration) throws {
        let files = FileManager.default
        try files.createDirectory(at: user.userFolder, withIntermediateDirectories: true)
        let staging = user.userFolder.appendingPathComponent("cache.sqlite.migrating")
        for suffix in sqliteSuffixes { try? files.removeItem(atPath: staging.path + suffix) }
        try files.copyItem(at: source, to: staging)
        let database = try SQLiteConnection(location: .file(staging))
        try database.transaction {
            for (table, column) in try presentOwnedTables(in: database) {
                try database.execute("DELETE FROM \(table) WHERE syncState <> 'synced' AND \(column) <> ?", [.text(owner)])
            }
        }
        database.close()
        // Only a complete copy takes the cache's name.
        try moveSQLiteFile(staging, to: user.cacheURL)
    }
}
