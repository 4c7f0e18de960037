import BenchmarkSupport
import Foundation
import LiveRepository
import LiveSocial
import ProcessLauncher

/// Scenario 3, in processes of their own: one builds a cache of `rows` messages in one channel
/// (`RepositoryVersus memory-build ROWS FILE`), a fresh one opens it and a collection whose
/// window holds all of them (`RepositoryVersus memory ROWS FILE`): its resident memory above its
/// own start is what the window costs an app that opens a cache it already has.
@MainActor
enum MemoryScenario {
    static let channel = "memory"

    /// Builds the cache file for ``run(rows:residentAtStart:cache:)``.
    static func build(rows: Int, cache url: URL) async throws {
        let store = try CacheBuilder.open(url)
        _ = try await CacheBuilder.fill(store, messages: rows, seed: 3) { _ in channel }
        await store.close()
    }

    /// Opens the cache at `url` and a collection with one page of `rows` rows.
    static func run(rows: Int, residentAtStart: Int, cache url: URL) async throws -> MemoryReading {
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

    /// Builds the cache in one child process and measures in another, and reads the result.
    nonisolated static func inChildProcess(rows: Int) throws -> MemoryReading {
        let folder = try RepositoryVersus.progress.scratchFolder("memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cache.sqlite").path
        _ = try child(["memory-build", String(rows), path])
        let text = try child(["memory", String(rows), path])
        guard let reading = MemoryReading(output: text) else {
            fatalError("the memory scenario printed no reading:\n\(text)")
        }
        return reading
    }

    /// Runs this executable with `arguments` and returns what it printed.
    private nonisolated static func child(_ arguments: [String]) throws -> String {
        // Not Foundation's `Process`, whose `run()` sometimes crashes on Linux (see SpawnedProcess).
        let process = try SpawnedProcess(
            (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).path, arguments: arguments,
            standardOutput: .pipe)
        let output = process.output?.readDataToEndOfFile() ?? Data()
        let termination = process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard termination == .exited(0) else {
            fatalError("`\(arguments.joined(separator: " "))` failed (\(termination)):\n\(text)")
        }
        return text
    }
}
