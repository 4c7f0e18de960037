import BenchmarkSupport
import Foundation

/// Live across processes: from a commit that process A makes to a cache file, to the observer
/// call in process B that watches the same file. This package's LiveStore, GRDB's
/// ValueObservation and a naive polling loop, each alone, then side by side; the idle cost of watching; and the
/// messages per second that reach B's live collection.
///
///     swift run -c release CrossProcessVersus          # 1,000 commits, 10 s idle, 50,000 messages
///     swift run -c release CrossProcessVersus quick    # for CI: 200 commits, 3 s idle, 5,000 messages
///     swift run -c release CrossProcessVersus [quick] --poll 50  # B's polling stores check every 50 ms
///     CrossProcessVersus writer spaced|burst FILE …    # process A (started by the run)
///     CrossProcessVersus idle KIND FILE SECONDS STORES POLL_MS  # an idle watcher (started by the run)
///
/// B's stores at the default settings (woken by each commit through the wake-up channel) run
/// beside stores polling every 10 ms (the default before wake-ups). The last line is
/// `summary: p99_ms=… idle_pct=… delivered=…/…` for the default settings.
@main
struct CrossProcessVersus {
    /// Starts the run on the main actor and turns the main thread's run loop, as an app does
    /// (the store and GRDB deliver on the main queue).
    @MainActor
    static func main() {
        Task { @MainActor in exit(await start()) }
        RunLoop.main.run()
    }

    @MainActor
    static func start() async -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "writer":
                try await Writer.run(Array(arguments.dropFirst()))
            case "idle":
                try await Scenarios.idleChild(Array(arguments.dropFirst()))
            case nil, "quick", "full", "--poll":
                var settings = arguments.first == "quick" ? Settings.quick : Settings.full
                if let flag = arguments.firstIndex(of: "--poll") {
                    guard flag + 1 < arguments.count, let milliseconds = Int(arguments[flag + 1]), milliseconds > 0 else {
                        throw Writer.Usage.wrong(arguments)
                    }
                    settings.pollMilliseconds = milliseconds
                }
                var report = Report(settings: settings)
                report.cores = ProcessInfo.processInfo.activeProcessorCount
                let folder = try progress.scratchFolder(settings.name)
                defer { try? FileManager.default.removeItem(at: folder) }
                let contenders: [WatcherKind] = [.live, .livePolling, .grdb, .naive]
                for kind in contenders {
                    report.latency += try await Scenarios.latency(settings, kinds: [kind], folder: folder, log: progress)
                }
                report.latency.append(try await Floor.measure(settings, folder: folder, log: progress))
                let together = try await Scenarios.latency(settings, kinds: contenders, folder: folder, log: progress)
                report.latency += together.filter { $0.kind == .live }
                report.idle = try await Scenarios.idle(settings, folder: folder, log: progress)
                for kind in [WatcherKind.live, .livePolling] {
                    report.throughput.append(try await Scenarios.throughput(settings, kind: kind, folder: folder, log: progress))
                }
                print(report.text())
                print(report.goals())
                print(report.summary())
            default:
                throw Writer.Usage.wrong(arguments)
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("CrossProcessVersus failed: \(error)\n".utf8))
            return 1
        }
    }

    /// Progress lines on standard error, timed from the process's start (near enough).
    static let progress = RunLog("CrossProcessVersus")
}
