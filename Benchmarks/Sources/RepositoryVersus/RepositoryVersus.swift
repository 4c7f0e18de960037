import BenchmarkSupport
import Foundation
import GRDB
import LiveRepository

/// Measures the repository layer (LiveStore, LiveCollection, the change-set computation)
/// against GRDB's ValueObservation over the same SQLite data, and prints a table per scenario.
///
///     swift run -c release RepositoryVersus [rounds]     # 1,000,000 messages, about 2 minutes
///     swift run -c release RepositoryVersus quick        # 100,000 messages, for CI
///     swift run -c release RepositoryVersus memory-build ROWS FILE; … memory ROWS FILE  # scenario 3 (run by the others)
///     swift run -c release RepositoryVersus events [COUNT] [grdb]  # scenario 2 alone, ours (or GRDB's), for profiling
///     swift run -c release RepositoryVersus stall [ROWS EVENTS]  # scenario 5 alone
@main
struct RepositoryVersus {
    /// Starts the run on the main actor and turns the main thread's run loop, as an app does.
    /// (An `async` main would not do: on Linux, `dispatch_main()` then drains the main queue
    /// from a worker thread, and GRDB's `.immediate` scheduling requires the main thread.)
    @MainActor
    static func main() {
        let residentAtStart = ResidentMemory.bytes()
        _ = progress
        Task { @MainActor in exit(await start(residentAtStart: residentAtStart)) }
        RunLoop.main.run()
    }

    /// Runs what the arguments ask for; returns the exit status.
    @MainActor
    static func start(residentAtStart: Int?) async -> Int32 {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.first == "memory-build" || arguments.first == "memory", arguments.count == 3,
               let rows = Int(arguments[1]) {
                let url = URL(fileURLWithPath: arguments[2])
                if arguments.first == "memory-build" {
                    try await MemoryScenario.build(rows: rows, cache: url)
                } else {
                    print(try await MemoryScenario.run(rows: rows, residentAtStart: residentAtStart ?? 0, cache: url).line)
                }
                return 0
            }
            if arguments.first == "events" {
                // Scenario 2 alone, for profiling: `RepositoryVersus events [count] [grdb]` (ours,
                // or GRDB's with its 5 s budget).
                let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
                let folder = try progress.scratchFolder("events")
                defer { try? FileManager.default.removeItem(at: folder) }
                let scenario = EventScenario(events: count, folder: folder, budget: .seconds(5))
                let grdb = arguments.dropFirst(2).first == "grdb"
                let run = grdb ? try await scenario.grdb(round: 0) : try await scenario.liveStore(round: 0)
                print("\(grdb ? "GRDB: " : "")\(grouped(count)) events: \(grouped(Int(run.eventsPerSecond))) events/s, "
                    + "\(run.seconds) s, \(grouped(run.reflected)) reflected, \(grouped(run.deliveries)) deliveries")
                return 0
            }
            if arguments.first == "stall" {
                // Scenario 5 alone: `RepositoryVersus stall [rows events]`.
                let rows = arguments.dropFirst().first.flatMap { Int($0) } ?? 50_000
                let events = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100_000
                let folder = try progress.scratchFolder("stall")
                defer { try? FileManager.default.removeItem(at: folder) }
                let run = try await StallScenario(windowRows: rows, events: events, folder: folder).run()
                print(Report.stallLines(run, rows: rows, events: events).joined(separator: "\n"))
                return 0
            }
            let quick = arguments.first == "quick"
            if quick { arguments.removeFirst() }
            let rounds = arguments.first.flatMap { Int($0) }.map { max(1, $0) }
            var report = Report(settings: quick ? .quick(rounds: rounds) : .full(rounds: rounds))
            try await run(&report)
            print(report.text())
            print(report.goals())
            return 0
        } catch {
            FileHandle.standardError.write(Data("RepositoryVersus failed: \(error)\n".utf8))
            return 1
        }
    }

    @MainActor
    static func run(_ report: inout Report) async throws {
        let settings = report.settings
        report.cores = ProcessInfo.processInfo.activeProcessorCount
        let folder = try progress.scratchFolder("main")
        defer { try? FileManager.default.removeItem(at: folder) }

        // 3 first, in a process of its own, while this one is still small.
        if ResidentMemory.bytes() != nil {
            progress("3. memory: a \(grouped(settings.memoryRows))-row window, in a child process")
            report.memory = try MemoryScenario.inChildProcess(rows: settings.memoryRows)
        }

        progress("1. building a cache of \(grouped(settings.cachedMessages)) messages")
        let url = folder.appendingPathComponent("messages.sqlite")
        let channels = settings.channels
        do {
            let store = try CacheBuilder.open(url)
            report.cacheBuild = try await CacheBuilder.fill(
                store, messages: settings.cachedMessages, seed: 1, pageCacheMiB: 512
            ) {
                channelName(forMessage: $0, channels: channels)
            }
            await store.close()
        }
        progress("1. first local callback, \(settings.timedChannels) channels")
        do {
            let store = try CacheBuilder.open(url)
            let pool = try GRDBSide.openPool(url)
            var random = SeededGenerator(seed: 42)
            let picked = (0..<(settings.warmUpChannels + settings.timedChannels)).map { _ in
                "channel-\(random.next() % UInt64(channels))"
            }
            let scenario = FirstReadScenario(store: store, pool: pool)
            report.firstRead = try await scenario.run(channels: picked, warmUp: settings.warmUpChannels)
            await store.close()
            try pool.close()
        }

        let events = EventScenario(events: settings.events, folder: folder, budget: settings.eventBudget)
        for round in 0..<settings.eventRounds {
            progress("2. events, round \(round + 1) of \(settings.eventRounds)")
            if round % 2 == 0 {
                report.liveEvents.append(try await events.liveStore(round: round))
                report.grdbEvents.append(try await events.grdb(round: round))
            } else {
                report.grdbEvents.append(try await events.grdb(round: round))
                report.liveEvents.append(try await events.liveStore(round: round))
            }
        }

        progress("5. main-actor stalls: scrolling \(grouped(settings.stallWindowRows)) rows during \(grouped(settings.stallEvents)) events")
        report.stall = try await StallScenario(
            windowRows: settings.stallWindowRows, events: settings.stallEvents, folder: folder).run()

        for size in settings.diffSizes {
            progress("4. change sets, \(grouped(size.rows)) rows")
            let input = DiffInput(rows: size.rows, changes: size.changes, seed: UInt64(size.rows))
            report.diffs.append((size.rows, size.changes,
                                 DiffScenario.collectionDiffing(input, calls: settings.diffCalls),
                                 DiffScenario.standardLibrary(input, calls: settings.standardDiffCalls)))
        }
    }

    /// The channel of the `index`th cached message: seeded, so about the same number per channel.
    static func channelName(forMessage index: Int, channels: Int) -> String {
        var random = SeededGenerator(seed: UInt64(index))
        return "channel-\(random.next() % UInt64(channels))"
    }

    /// Progress lines on standard error, timed from the process's start (near enough).
    static let progress = RunLog("RepositoryVersus")
}
