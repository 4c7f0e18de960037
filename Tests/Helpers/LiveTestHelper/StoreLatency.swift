import Foundation
import LiveRepository
import TestSupport

/// `store-latency <file> <count> [--pause-ms N] [--idle-seconds S] [--interval-ms N|off]`
///
/// A measurement, not a test: how long a commit in another process takes to reach an observer
/// of this one, and what watching costs while nothing happens. Opens a `LiveStore` on `<file>`
/// (polling every `--interval-ms`, the default setting when not given), observes a live
/// collection of its notes, measures this process's CPU time over `--idle-seconds` of idle
/// watching (3 by default; `getrusage`), then starts `store-write --stamp` in a child process
/// and, for each note the observer is told about, takes the time from the writer's stamp (just
/// before its write) to the observer call. Prints the idle CPU share and the latency
/// percentiles in milliseconds.
@MainActor
enum StoreLatency {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 2, let count = Int(arguments[1]), count > 0 else {
            return StoreCommands.usage(
                "store-latency <file> <count> [--pause-ms N] [--idle-seconds S] [--interval-ms N|off]")
        }
        let file = arguments[0]
        let pause = StoreCommands.option("--pause-ms", in: arguments) ?? "2"
        let idleSeconds = StoreCommands.option("--idle-seconds", in: arguments).flatMap(Double.init) ?? 3
        let detection: ExternalChangeDetection = switch StoreCommands.option("--interval-ms", in: arguments) {
        case "off"?: .off
        case let value?: Int(value).map { .polling(every: .milliseconds($0)) } ?? .default
        case nil: .default
        }
        do {
            let store = try LiveStore(
                location: .file(URL(fileURLWithPath: file)), migrations: StoreNote.migrations, externalChanges: detection)
            let collection = LiveCollection(
                store: store, query: CacheQuery<StoreNote>(orderBy: "rank"), pageSize: 50, anchor: .end, fetchPage: nil)
            var latencies: [Double] = []
            let token = collection.observe { collection, change, _ in
                let now = DispatchTime.now().uptimeNanoseconds
                for index in change?.insertions ?? [] {
                    guard let stamp = collection.object(at: index).flatMap({ UInt64($0.body) }) else { continue }
                    latencies.append(Double(now - stamp) / 1_000_000)
                }
            }
            let idle = try await cpuShare(over: idleSeconds)
            print(String(format: "idle: %.3f%% of one core over %.0f s (interval %@)", idle * 100, idleSeconds,
                         detection.interval.map { "\($0)" } ?? "off"))

            let writer = try SpawnedProcess(
                CommandLine.arguments[0], arguments: ["store-write", file, String(count), "--pause-ms", pause, "--stamp"],
                standardOutput: .nullDevice)
            let deadline = ContinuousClock.now + .seconds(60)
            while latencies.count < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            _ = await writer.termination()
            withExtendedLifetime(token) {}
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            guard !sorted.isEmpty else { print("no deliveries"); return 1 }
            print(String(format: "latency over %d commits (%d delivered): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
                         count, sorted.count, percentile(0.5), percentile(0.9), percentile(0.99), sorted.last!))
            await store.close()
            return sorted.count == count ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("store-latency: \(error)\n".utf8))
            return 1
        }
    }

    /// This process's CPU time (user and system) over `seconds` of waiting, as a share of one core.
    private static func cpuShare(over seconds: Double) async throws -> Double {
        func cpuSeconds() -> Double {
            var usage = rusage()
            #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            #else
            getrusage(RUSAGE_SELF, &usage)
            #endif
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        }
        let start = ContinuousClock.now
        let before = cpuSeconds()
        try await Task.sleep(for: .seconds(seconds))
        let elapsed = ContinuousClock.now - start
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (cpuSeconds() - before) / wall
    }
}
