import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// The process's watcher of shared files, on its own (a monitor of the test's, not the shared one).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ExternalChangeMonitorTests {
    /// Moves `url` and its companions aside, as recovery from damage does.
    func moveAside(_ url: URL, to target: URL) throws {
        let fileManager = FileManager.default
        try fileManager.moveItem(at: url, to: target)
        for suffix in ["-wal", "-shm"] where fileManager.fileExists(atPath: url.path + suffix) {
            try fileManager.moveItem(atPath: url.path + suffix, toPath: target.path + suffix)
        }
    }

    @Test func aFileReplacedAtItsPathIsFollowed() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("watched.sqlite")
        let first = try SQLiteConnection(location: .file(url))
        try first.execute("CREATE TABLE t (x)")
        first.close()
        let monitor = ExternalChangeMonitor()
        let wakes = Deliveries<Void>()
        let subscription = try #require(monitor.subscribe(file: url, detection: .polling(every: .milliseconds(5))) {
            Task { @MainActor in wakes.record(()) }
        })
        defer { monitor.unsubscribe(subscription) }
        // A new file takes the old one's place: the monitor opens it and wakes its subscribers
        // once (it cannot know what was committed to it before it looked).
        try moveAside(url, to: directory.file("watched.sqlite.damaged"))
        let second = try SQLiteConnection(location: .file(url))
        defer { second.close() }
        try second.execute("CREATE TABLE t (x)")
        try await wakes.next()
        // And then sees the new file's commits.
        wakes.skipUnread()
        try second.execute("INSERT INTO t VALUES (1)")
        try await wakes.next()
    }
}
