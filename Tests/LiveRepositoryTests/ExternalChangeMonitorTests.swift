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

    /// A file with a table `t`, and the connection that made it (a writer that announces nothing).
    func watchedFile(in directory: TemporaryDirectory) throws -> (URL, SQLiteConnection) {
        let url = directory.file("watched.sqlite")
        let writer = try SQLiteConnection(location: .file(url))
        try writer.execute("CREATE TABLE t (x)")
        return (url, writer)
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

    @Test func theSlowCheckIsTheChannelsAndRunsAtTheShortestIntervalItsSubscribersAsk() async throws {
        let directory = try TemporaryDirectory()
        let (url, writer) = try watchedFile(in: directory)
        defer { writer.close() }
        let monitor = ExternalChangeMonitor()
        let wakes = Deliveries<String>()
        let quiet = try #require(monitor.subscribe(file: url, detection: .wakeUps(checkingEvery: nil)) {
            Task { @MainActor in wakes.record("quiet") }
        })
        defer { monitor.unsubscribe(quiet) }
        #expect(monitor.readsChannel(of: url) && monitor.timerCount == 0)
        // A subscriber that asks for a slow check every 5 ms: the channel's thread makes it, for
        // both, and finds a commit that woke no one (a raw SQLite writer's).
        let checking = try #require(monitor.subscribe(file: url, detection: .wakeUps(checkingEvery: .milliseconds(5))) {
            Task { @MainActor in wakes.record("checking") }
        })
        defer { monitor.unsubscribe(checking) }
        #expect(monitor.timerCount == 0)
        try writer.execute("INSERT INTO t VALUES (1)")
        let first = try await wakes.next()
        let second = try await wakes.next()
        #expect(Set([first, second]) == ["quiet", "checking"])
        // A polling subscriber of the same file runs the timer.
        let polling = try #require(monitor.subscribe(file: url, detection: .polling(every: .milliseconds(5))) {})
        #expect(monitor.timerCount == 1)
        monitor.unsubscribe(polling)
        #expect(monitor.timerCount == 0)
    }

    /// A wake-up read from the channel calls a lone waking subscriber's `lookHere`; with two,
    /// each one's `wake`; a commit of this process wakes the others with `wake` only.
    @Test func aLoneSubscriberLooksOnTheChannelsThreadAndSeveralAreWoken() async throws {
        let directory = try TemporaryDirectory()
        let (url, writer) = try watchedFile(in: directory)
        defer { writer.close() }
        let monitor = ExternalChangeMonitor()
        let calls = Deliveries<String>()
        func record(_ call: String) -> @Sendable () -> Void {
            { Task { @MainActor in calls.record(call) } }
        }
        let folder = WakeChannel.folder(of: url)
        let first = try #require(monitor.subscribe(
            file: url, detection: .wakeUps(checkingEvery: nil), lookHere: record("here 1"), wake: record("wake 1")))
        defer { monitor.unsubscribe(first) }
        WakeChannel.announce(folder: folder, skipping: nil)
        #expect(try await calls.next() == "here 1")
        let second = try #require(monitor.subscribe(
            file: url, detection: .wakeUps(checkingEvery: nil), lookHere: record("here 2"), wake: record("wake 2")))
        defer { monitor.unsubscribe(second) }
        WakeChannel.announce(folder: folder, skipping: nil)
        let woken = [try await calls.next(), try await calls.next()]
        #expect(Set(woken) == ["wake 1", "wake 2"])
        monitor.announce(file: url, from: first)
        #expect(try await calls.next() == "wake 2")
    }
}

