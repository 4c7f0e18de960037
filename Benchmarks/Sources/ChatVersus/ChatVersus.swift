import BenchmarkSupport
import Foundation

/// Measures LiveSocial's `MessageCollection` against the embedded server: opening a collection
/// at a starting point in a channel of 1,000,000 messages, and catching up after missed messages.
///
///     swift run -c release ChatVersus          # 1,000,000 messages, about 5½ minutes (each start takes seconds)
///     swift run -c release ChatVersus quick    # 100,000 messages and fewer rounds, for CI: under 20 s
@main
struct ChatVersus {
    /// Starts the run on the main actor and turns the main thread's run loop, as an app does
    /// (the cache delivers its completions on the main queue).
    @MainActor
    static func main() {
        _ = progress
        Task { @MainActor in exit(await start()) }
        RunLoop.main.run()
    }

    /// Runs what the arguments ask for; returns the exit status.
    @MainActor
    static func start() async -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count <= 1, arguments.first.map({ $0 == "quick" }) ?? true else {
            FileHandle.standardError.write(Data("usage: ChatVersus [quick]\n".utf8))
            return 2
        }
        var report = Report(settings: arguments.first == "quick" ? .quick : .full)
        do {
            try await run(&report)
            print(report.text())
            return 0
        } catch {
            FileHandle.standardError.write(Data("ChatVersus failed: \(error)\n".utf8))
            return 1
        }
    }

    @MainActor
    static func run(_ report: inout Report) async throws {
        let settings = report.settings
        report.cores = ProcessInfo.processInfo.activeProcessorCount
        let folder = try progress.scratchFolder("cache")
        defer { try? FileManager.default.removeItem(at: folder) }

        let fixture = try await ChatFixture.make(messages: settings.messages, folder: folder) { progress("setup: \($0)") }
        report.serverLoad = fixture.serverLoad
        report.cacheWrites = fixture.cacheWrites

        let opening = OpeningScenario(fixture: fixture)
        let points = opening.randomStartingPoints(count: settings.warmUpOpenings + settings.randomOpenings, seed: 42)
        progress("1. \(settings.warmUpOpenings) warm-up opening(s), then \(settings.randomOpenings) at random starting points")
        report.randomOpenings = Array(await opening.run(startingPoints: points).dropFirst(settings.warmUpOpenings))
        progress("1. \(settings.newestOpenings) openings at the newest messages")
        report.newestOpenings = await opening.run(startingPoints: Array(repeating: .infinity, count: settings.newestOpenings))

        let catchUp = CatchUpScenario(fixture: fixture)
        for number in 0..<settings.catchUpRounds {
            progress("2. catch-up round \(number + 1) of \(settings.catchUpRounds)")
            report.catchUps.append(try await catchUp.round(number, missed: settings.missedMessages))
        }
        progress("2. huge gap: \(settings.hugeGapMessages) missed messages")
        report.hugeGap = try await catchUp.hugeGap(missed: settings.hugeGapMessages)
        await fixture.client.store.close()
    }

    /// Progress lines on standard error, timed from the process's start (near enough).
    static let progress = RunLog("ChatVersus")
}
