import Foundation
import LiveRepository
import LiveSocial

/// Scenario 3, run in a process of its own (`RepositoryVersus memory ROWS`): the resident memory
/// a collection whose window holds `rows` rows adds.
@MainActor
enum MemoryScenario {
    static let channel = "memory"

    /// Builds a cache of `rows` messages in one channel (in a store that is then closed and
    /// released), reopens it, and opens a collection with one page of `rows` rows.
    static func run(rows: Int, residentAtStart: Int) async throws -> MemoryReading {
        let folder = try CacheBuilder.temporaryFolder("memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cache.sqlite")
        do {
            let store = try CacheBuilder.open(url)
            _ = try await CacheBuilder.fill(store, messages: rows, seed: 3) { _ in channel }
            await store.close()
        }
        let store = try CacheBuilder.open(url)
        let before = ResidentMemory.bytes() ?? 0
        let clock = ContinuousClock()
        let first = FirstCallback<ContinuousClock.Instant>()
        let start = clock.now
        let collection = LiveCollection(
            store: store,
            query: SocialQuery<Message>.messages(channelId: channel, newestFirst: false).cacheQuery,
            pageSize: rows, anchor: .end, fetchPage: nil)
        let token = collection.observe { _, _, _ in first.fire(clock.now) }
        let end = await first.wait()
        guard collection.count == rows else { fatalError("the window holds \(collection.count) rows, not \(rows)") }
        for index in [0, rows / 4, rows / 2, 3 * rows / 4, rows - 1] {
            guard collection.object(at: index) != nil else { fatalError("no record at \(index)") }
        }
        let window = ResidentMemory.bytes() ?? 0
        token.invalidate()
        withExtendedLifetime(collection) {}
        await store.close()
        return MemoryReading(
            rows: rows, atStart: residentAtStart, beforeOpening: before, withWindow: window,
            firstCallbackMilliseconds: milliseconds(start.duration(to: end)))
    }

    /// Runs `RepositoryVersus memory ROWS` as a child process and reads its result.
    nonisolated static func inChildProcess(rows: Int) throws -> MemoryReading {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["memory", String(rows)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0, let reading = MemoryReading(output: text) else {
            fatalError("the memory scenario's process failed (\(process.terminationStatus)):\n\(text)")
        }
        return reading
    }
}
