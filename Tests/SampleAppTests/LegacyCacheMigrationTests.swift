import Foundation
import LiveRepository
import LiveSocial
import SampleApp
import TestSupport
import Testing

/// An older version's shared `cache.sqlite` goes to the user whose unsent changes it holds, or
/// aside to `legacy/`; the server's database is never touched.
@Suite(.timeLimit(.minutes(3)))
struct LegacyCacheMigrationTests {
    let users: Set<String> = ["ada", "alan", "grace"]

    func exists(_ folder: TemporaryDirectory, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.file(path).path)
    }

    @Test func aFolderWithoutTheOlderLayoutIsLeftAlone() throws {
        let folder = try TemporaryDirectory()
        try Data("server".utf8).write(to: folder.file("server.sqlite"))
        #expect(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users) == nil)
        #expect(folder.contents == ["server.sqlite"])
    }

    @Test func oneUsersUnsentMessagesMoveWithTheWholeCacheToTheirFolder() async throws {
        let folder = try TemporaryDirectory()
        try Data("server".utf8).write(to: folder.file("server.sqlite"))
        try await LegacyCache.write(in: folder.url, messages: [
            LegacyCache.message("m1", by: "ada"), LegacyCache.message("m2", by: "grace"),
            LegacyCache.message("p1", by: "alan", .syncing), LegacyCache.message("p2", by: "alan", .error),
        ])
        #expect(exists(folder, "cache.sqlite-wal"), "the records are in the log, as a killed app leaves them")

        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.movedTo == "alan")
        #expect(outcome.unsentByUser == ["alan": 2])
        #expect(outcome.unplaced.isEmpty)
        #expect(outcome.legacyFolder == nil, "nothing is left over")
        #expect(outcome.problem == nil)
        #expect(outcome.notice == "moved the older version's cache, with alan's 2 unsent changes, to users/alan/")

        #expect(folder.contents.sorted() == ["layout.lock", "server.sqlite", "users"])
        let cache = folder.file("users/alan/cache.sqlite")
        #expect(try LegacyCache.unsentMessages(in: cache) == ["p1 by alan", "p2 by alan"])
        #expect(try LegacyCache.messageIDs(in: cache) == ["m1", "m2", "p1", "p2"], "the cached server records come too")
        #expect(try String(contentsOf: folder.file("users/alan/read-markers.json"), encoding: .utf8) == #"{"general":3}"#)
        #expect(try String(contentsOf: folder.file("server.sqlite"), encoding: .utf8) == "server", "the server's file is not touched")
    }

    @Test func severalUsersUnsentChangesEachGoToTheirOwnCopy() async throws {
        let folder = try TemporaryDirectory()
        try await LegacyCache.write(
            in: folder.url,
            messages: [LegacyCache.message("m1", by: "grace"), LegacyCache.message("a1", by: "ada", .error),
                       LegacyCache.message("l1", by: "alan", .syncing)],
            reactions: [LegacyCache.reaction(by: "alan", .syncing), LegacyCache.reaction(by: "ada", .synced)])

        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.movedTo == nil)
        #expect(outcome.unsentByUser == ["ada": 1, "alan": 2])
        #expect(outcome.legacyFolder?.lastPathComponent == "legacy")
        #expect(outcome.notice
            == "the older version's shared cache had unsent changes of ada (1), alan (2): each has their own copy now; the original is in legacy/")

        let ada = folder.file("users/ada/cache.sqlite")
        let alan = folder.file("users/alan/cache.sqlite")
        #expect(try LegacyCache.unsentMessages(in: ada) == ["a1 by ada"])
        #expect(try LegacyCache.unsentReactions(in: ada) == [])
        #expect(try LegacyCache.messageIDs(in: ada) == ["a1", "m1"])
        #expect(try LegacyCache.unsentMessages(in: alan) == ["l1 by alan"])
        #expect(try LegacyCache.unsentReactions(in: alan) == ["alan"])
        #expect(!exists(folder, "users/ada/read-markers.json"), "whose read markers they were is not known")
        #expect(!exists(folder, "users/alan/cache.sqlite.migrating"))
        #expect(try LegacyCache.unsentMessages(in: folder.file("legacy/cache.sqlite")) == ["a1 by ada", "l1 by alan"])
        #expect(exists(folder, "legacy/read-markers.json"))
        #expect(!exists(folder, "cache.sqlite") && !exists(folder, "cache.sqlite-wal") && !exists(folder, "read-markers.json"))
    }

    @Test func aCacheWithNothingUnsentIsSetAsideForARebuild() async throws {
        let folder = try TemporaryDirectory()
        try await LegacyCache.write(in: folder.url, messages: [LegacyCache.message("m1", by: "ada")])
        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.movedTo == nil)
        #expect(outcome.unsentByUser.isEmpty)
        #expect(outcome.notice == "the older version's shared cache (no unsent changes) was moved to legacy/; rebuilt from the server")
        #expect(!exists(folder, "users"))
        #expect(try LegacyCache.messageIDs(in: folder.file("legacy/cache.sqlite")) == ["m1"])
        #expect(exists(folder, "legacy/read-markers.json"))
    }

    @Test func readMarkersAloneAreSetAside() throws {
        let folder = try TemporaryDirectory()
        try Data(#"{"general":3}"#.utf8).write(to: folder.file("read-markers.json"))
        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.legacyFolder?.lastPathComponent == "legacy")
        #expect(exists(folder, "legacy/read-markers.json"))
        #expect(!exists(folder, "read-markers.json"))
    }

    @Test func anUnreadableCacheIsSetAsideWithTheReason() throws {
        let folder = try TemporaryDirectory()
        try Data(repeating: 0x41, count: 8192).write(to: folder.file("cache.sqlite"))
        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        let problem = try #require(outcome.problem)
        #expect(outcome.notice.hasPrefix("the older version's shared cache could not be read (\(problem)): moved to legacy/"))
        #expect(try Data(contentsOf: folder.file("legacy/cache.sqlite")) == Data(repeating: 0x41, count: 8192), "kept as it was")
        #expect(!exists(folder, "users"))
    }

    @Test func unsentChangesOfAUserTheServerDoesNotKnowStayAside() async throws {
        let folder = try TemporaryDirectory()
        try await LegacyCache.write(in: folder.url, messages: [LegacyCache.message("x1", by: "../bob", .syncing)])
        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.unplaced == ["../bob"])
        #expect(outcome.unsentByUser.isEmpty)
        #expect(outcome.notice == "the unsent changes of ../bob are only in legacy/")
        #expect(!exists(folder, "users") && !exists(folder, "bob"))
        #expect(try LegacyCache.unsentMessages(in: folder.file("legacy/cache.sqlite")) == ["x1 by ../bob"])
    }

    @Test func aUserWhoAlreadyHasACacheKeepsItAndTheOlderOneStaysAside() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.file("users/alan"), withIntermediateDirectories: true)
        try Data("newer".utf8).write(to: folder.file("users/alan/cache.sqlite"))
        try FileManager.default.createDirectory(at: folder.file("legacy"), withIntermediateDirectories: true)
        try await LegacyCache.write(in: folder.url, messages: [LegacyCache.message("p1", by: "alan", .syncing)])

        let outcome = try #require(try LegacyCacheMigration.migrate(dataFolder: folder.url, knownUsers: users))
        #expect(outcome.unplaced == ["alan"])
        #expect(outcome.legacyFolder?.lastPathComponent == "legacy-2", "an earlier legacy folder is not overwritten")
        #expect(try String(contentsOf: folder.file("users/alan/cache.sqlite"), encoding: .utf8) == "newer")
        #expect(try LegacyCache.unsentMessages(in: folder.file("legacy-2/cache.sqlite")) == ["p1 by alan"])
    }
}
