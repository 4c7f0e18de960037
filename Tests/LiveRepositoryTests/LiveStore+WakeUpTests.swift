import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// The wake-up channel across real processes (the helper executable is the other process), and
/// the one watcher a process keeps however many stores it opens.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveStoreWakeUpTests {
    /// Wake-ups and no timer at all: only a wake-up brings another process's commit.
    static let wakeOnly = ExternalChangeDetection.wakeUps(checkingEvery: nil)
    let monitor = ExternalChangeMonitor.shared

    func store(_ url: URL, _ detection: ExternalChangeDetection = wakeOnly) throws -> LiveStore {
        try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: detection)
    }

    /// The deliveries of a live collection of `store`'s notes, after a first one showing `n0`
    /// (written first: an empty collection has nothing to deliver).
    func deliveries(of store: LiveStore) async throws -> CheckedDeliveries {
        try await store.write { try $0.upsert(Note(id: "n0", rank: 0)) }
        let deliveries = CheckedDeliveries(
            LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 2_000, fetchPage: nil))
        #expect(try await deliveries.log.next().ids == ["n0"])
        return deliveries
    }

    /// The pipes in the wake-up folder of `url`: one per process that watches it.
    func pipes(of url: URL) -> [String] {
        WakeChannel.fifoNames(in: WakeChannel.folder(of: url))
    }

    @Test func aCommitInAnotherProcessWakesThisStore() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        #expect(monitor.readsChannel(of: url))
        #expect(pipes(of: url).count == 1)
        let published = PublishedChanges(store)
        let (status, _) = try await runHelper(["store-write", url.path, "1"])
        #expect(status == 0)
        #expect(try await published.log.next().ids == ["p1"])
        #expect(monitor.channelWakeCount(of: url) >= 1)
    }

    @Test func aBurstOfAThousandCommitsArrivesCompleteInOrderOnce() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        try await store.write { try $0.upsert(Note(id: "n0", rank: 0)) }
        // Counts and change sets only: reading every row at each of a thousand deliveries would
        // hold the main actor for seconds, which the suites running beside this one need.
        let collection = LiveCollection<Note>(store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 2_000, fetchPage: nil)
        let counts = Deliveries<(count: Int, change: CollectionChange?)>()
        let token = collection.observe { collection, change, _ in counts.record((collection.count, change)) }
        #expect(try await counts.next().count == 1)
        let published = PublishedChanges(store)
        let count = 1_000
        let (status, _) = try await runHelper(["store-write", url.path, "\(count)"])
        #expect(status == 0)
        var arrived: [String] = []
        while arrived.count < count {
            let change = try await published.log.next()
            #expect(!change.isWholeTable)
            // A change merges the commits found by one look: in rank order within it.
            arrived += change.ids.sorted { Int($0.dropFirst())! < Int($1.dropFirst())! }
        }
        #expect(arrived == helperNoteIDs(1...count))
        _ = try await counts.next { $0.count == count + 1 }
        let changes = counts.all.dropFirst().compactMap(\.change)
        #expect(changes.count == counts.all.count - 1)
        #expect(changes.reduce(0) { $0 + $1.insertions.count } == count)
        #expect(changes.allSatisfy { $0.deletions.isEmpty && $0.modifications.isEmpty })
        #expect(collection.allObjects().map(\.id) == ["n0"] + helperNoteIDs(1...count))
        await settle(store)
        #expect(published.log.unread == 0)
        _ = token
    }

    @Test func aWatcherKilledWithSIGKILLLeavesTheChannelUsable() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        let published = PublishedChanges(store)
        let other = try HelperProcess(["store-watch", url.path])
        #expect(await other.nextLine() == "ready")
        #expect(pipes(of: url).count == 2)
        other.kill()
        #expect(await other.exitStatus() == SIGKILL)
        // Its pipe is left behind, with no reader: the next writer deletes it and goes on.
        #expect(pipes(of: url).count == 2)
        let (status, _) = try await runHelper(["store-write", url.path, "1"])
        #expect(status == 0)
        #expect(try await published.log.next().ids == ["p1"])
        #expect(pipes(of: url).count == 1)
    }

    /// A store killed between its commit and its wake-up left its change-log row: the next
    /// wake-up (another writer's) finds both commits. A writer that keeps no log (the raw
    /// connection of the next test) is found by the slow check instead: its commit followed by a
    /// logged one looks to a wake-up like the logged one alone. Run alone, this test's process
    /// has no timer (wake-ups only), so only the wake-up can make it pass.
    @Test func aWriterKilledBeforeItsWakeUpIsCaughtByTheNextWakeUp() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        let deliveries = try await deliveries(of: store)
        let (killed, lines) = try await runHelper(["store-commit-silently-and-die", url.path, "1"])
        #expect(killed == SIGKILL && lines == ["committed"])
        let (status, _) = try await runHelper(["store-write", url.path, "1", "--first", "2"])
        #expect(status == 0)
        let seen = try await deliveries.log.next { $0.ids.count == 3 }
        #expect(seen.ids == ["n0", "p1", "p2"])
        #expect(deliveries.inconsistencies.isEmpty)
    }

    @Test func aWriterKilledBeforeItsWakeUpIsCaughtByTheSlowCheck() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url, .wakeUps(checkingEvery: .milliseconds(20)))
        let deliveries = try await deliveries(of: store)
        let (killed, _) = try await runHelper(["store-commit-and-die", url.path, "1"])
        #expect(killed == SIGKILL)
        // No wake-up comes: the timer finds the commit (bounded by the suite's time limit).
        #expect(try await deliveries.log.next().ids == ["n0", "p1"])
    }

    @Test func whereThePipeCannotBeMadeTheStorePollsAndStillDelivers() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        // The file, its -wal and -shm exist (kept open) before the folder becomes read-only.
        let creator = try store(url, .off)
        try await creator.write { try $0.upsert(Note(id: "n0", rank: 0)) }
        let locks = ReadOnlyPaths()
        try locks.lock(directory.url)
        defer { locks.unlock() }
        let store = try store(url, .default)
        #expect(!monitor.readsChannel(of: url))
        #expect(monitor.timerCount == 1 && monitor.timerWatches(url))
        let deliveries = CheckedDeliveries(
            LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 2_000, fetchPage: nil))
        #expect(try await deliveries.log.next().ids == ["n0"])
        let (status, _) = try await runHelper(["store-write", url.path, "1"])
        #expect(status == 0)
        #expect(try await deliveries.log.next().ids == ["n0", "p1"])
        await store.close()
        await creator.close()
    }

    @Test func aHundredStoresOnOneFileCostOneWatcher() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let stores = try (0..<100).map { _ in try store(url, .default) }
        #expect(monitor.subscriberCount(of: url) == 100)
        #expect(pipes(of: url).count == 1)
        // The slow check is the channel's reading thread's: the timer (other suites' polling
        // stores may run it) does not look at this file.
        #expect(!monitor.timerWatches(url))
        // Each is still woken: one store's commit reaches the last one.
        let published = PublishedChanges(stores[99])
        try await stores[0].write { try $0.upsert(Note(id: "n1", rank: 1)) }
        #expect(try await published.log.next().ids == ["n1"])
        for store in stores { await store.close() }
        #expect(monitor.subscriberCount(of: url) == 0)
        #expect(pipes(of: url).isEmpty)
    }

    /// Holds `store`'s queue with a write until the returned semaphore is signalled.
    func hold(_ store: LiveStore) -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        store.enqueueWrite({ _ in
            holding.signal()
            release.wait()
        })
        holding.wait()
        return release
    }

    /// The channel's thread runs a lone store's look on the store's queue, waiting for it while a
    /// write holds it; closing the store meanwhile waits for that look instead of deadlocking
    /// with it (the close's unsubscription waits for the channel's thread to end).
    @Test func aStoreClosesWhileTheChannelsThreadWaitsForItsQueue() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        try await store.write { try $0.upsert(Note(id: "n0", rank: 0)) }
        let release = hold(store)
        // A wake-up of this process's own pipe: the channel's thread waits for the queue.
        let wakes = monitor.channelWakeCount(of: url)
        WakeChannel.announce(folder: WakeChannel.folder(of: url), skipping: nil)
        while monitor.channelWakeCount(of: url) == wakes { try Task.checkCancellation(); await Task.yield() }
        let closing = Task { await store.close() }
        release.signal()
        await closing.value
        #expect(!monitor.readsChannel(of: url))
        #expect(throws: SQLiteError.closed) { try store.readNow { try $0.execute("SELECT 1") } }
    }

    /// Closing stops watching before it waits for the store's queue: the channel's thread, which
    /// may be waiting for that queue with a look, is never waited for from the queue.
    @Test func closingStopsWatchingWithoutWaitingForTheQueue() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try store(url)
        let release = hold(store)
        let closing = Task { await store.close() }
        while monitor.readsChannel(of: url) { try Task.checkCancellation(); await Task.yield() }
        #expect(pipes(of: url).isEmpty)
        release.signal()
        await closing.value
    }
}

