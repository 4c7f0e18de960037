import BenchmarkSupport
import Foundation

/// The numbers of one run, printed as three tables, the goals and a summary line.
struct Report {
    let settings: Settings
    var cores = 0
    var latency: [Scenarios.Latency] = []
    var idle: [Scenarios.Idle] = []
    var throughput: [Scenarios.Throughput] = []

    private var poll: Int { settings.pollMilliseconds }

    func text() -> String {
        var lines = ["CrossProcessVersus (\(settings.name)): process A (a child) writes to a cache file with its own "
            + "LiveStore; process B (this one) watches the same file. \(cores) cores."]

        lines += ["", "1. Latency: from a commit in process A to the observer call in process B, "
            + "\(grouped(settings.commits)) commits of one message each, "
            + "\(settings.minimumPauseMicroseconds / 1_000)–\(settings.maximumPauseMicroseconds / 1_000) ms apart; "
            + "each watcher alone in B (the same commits each time), then the first row's beside the three others. "
            + "From the commit: from A's stamp read just before the commit (the change log's row, the COMMIT, the wake-up); "
            + "from the upsert: from A's stamp read before the upsert, as this table measured until 2026-11-29: ms", ""]
        lines += ["| watcher in process B | commits seen | from the commit: p50 | p99 | max | from the upsert: p50 | p99 | max "
            + "| observer calls |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        func columns(_ values: [Double]) -> String {
            "\(formatted(Statistics.median(values))) | \(formatted(Statistics.percentile(values, 99))) | \(formatted(values.max() ?? .nan))"
        }
        for result in latency {
            let title = result.kind.title(poll: poll) + (result.besideOthers ? ", beside the three others at once" : "")
            lines.append("| \(title) | \(grouped(result.seen)) of \(grouped(settings.commits)) | \(columns(result.fromCommit)) | "
                + "\(columns(result.milliseconds)) | \(grouped(result.deliveries)) |")
        }

        lines += ["", "2. Idle cost: a process watching a file nobody writes, \(settings.idleSeconds) s "
            + "(getrusage CPU time over wall time; one process per row, all measured at the same time, once every one has opened its watcher)", ""]
        lines += ["| process B | CPU: ms | % of one core | above the baseline: % of one core | observer calls |", "|---|---:|---:|---:|---:|"]
        for result in idle {
            let above = result.kind == WatcherKind.none ? "" : percent(result.share - baseline)
            lines.append("| \(result.kind.title(poll: poll, stores: result.stores)) | \(formatted(result.cpuSeconds * 1_000)) | "
                + "\(percent(result.share)) | \(above) | \(grouped(result.calls)) |")
        }

        if !throughput.isEmpty {
            lines += ["", "3. Throughput: process A queues \(grouped(settings.burst)) messages at once with enqueueWrite "
                + "(committed in shared transactions); B's LiveCollection shows them", ""]
            lines += ["| measure | " + throughput.map { $0.kind.title(poll: poll) }.joined(separator: " | ") + " |",
                      "|---|" + throughput.map { _ in "---:" }.joined(separator: "|") + "|"]
            func row(_ name: String, _ value: (Scenarios.Throughput) -> String) {
                lines.append("| \(name) | " + throughput.map(value).joined(separator: " | ") + " |")
            }
            row("messages B's collection showed") { "\(grouped($0.delivered)) of \(grouped($0.messages))" }
            row("A: first message's stamp to the last commit: s") { formatted($0.writeSeconds) }
            row("A: messages written per second") { formatted(Double($0.messages) / $0.writeSeconds) }
            row("B: first message's stamp (in A) to the observer call showing the last: s") { formatted($0.deliverySeconds) }
            row("B: messages delivered per second") { formatted(deliveredPerSecond($0)) }
            row("B: observer calls") { grouped($0.deliveries) }
            row("a message's latency, stamp to observer call: p50 / max, ms") {
                "\(formatted(Statistics.median($0.milliseconds))) / \(formatted($0.milliseconds.max() ?? .nan))"
            }
        }
        return lines.joined(separator: "\n")
    }

    func goals() -> String {
        var lines = ["", "Goals, at the default settings (wake-ups)" + (settings.name == "full" ? ":" : " (quick run: fewer commits and a shorter idle time):")]
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
        if let live = wokenAlone {
            let p99 = Statistics.percentile(live.fromCommit, 99)
            lines.append("- latency p99 at most 1 ms from a commit in A to the observer in B: "
                + (live.seen == 0 ? "n/a, B's LiveStore saw none of A's commits"
                    : "\(formatted(p99)) ms, \(grouped(live.seen)) of \(grouped(settings.commits)) commits seen, "
                        + verdict(p99 <= 1 && live.seen == settings.commits)))
        }
        let worst = worstIdle
        if worst.isFinite {
            lines.append("- idle cost at most 0.02% of a core above the baseline with \(settings.storeCounts.map(String.init).joined(separator: ", ")) "
                + "stores: at most \(percent(worst)), " + verdict(worst <= 0.0002))
        }
        if let woken = throughput.first(where: { $0.kind == .live }), let polled = throughput.first(where: { $0.kind == .livePolling }) {
            let (rate, before) = (deliveredPerSecond(woken), deliveredPerSecond(polled))
            lines.append("- throughput not lower than polling's: \(formatted(rate)) messages/s against \(formatted(before)) "
                + "(\(grouped(woken.delivered)) of \(grouped(woken.messages))), "
                + verdict(rate >= before * 0.95 && woken.delivered == woken.messages))
        }
        return lines.joined(separator: "\n")
    }

    /// One line a script can read, for the default settings: the latency p99 (from the commit),
    /// the highest idle cost above the baseline over the store counts (% of one core), and the
    /// messages delivered out of those written (the latency scenario's commits and the throughput
    /// scenario's burst).
    func summary() -> String {
        let live = wokenAlone
        let burst = throughput.first { $0.kind == .live }
        let p99 = live.map { Statistics.percentile($0.fromCommit, 99) } ?? .nan
        let delivered = (live?.seen ?? 0) + (burst?.delivered ?? 0)
        let written = settings.commits + (burst?.messages ?? 0)
        return "summary: p99_ms=\(String(format: "%.3f", p99)) idle_pct=\(String(format: "%.4f", worstIdle * 100)) "
            + "delivered=\(delivered)/\(written)"
    }

    /// The latency of B's store at the default settings, watching alone.
    private var wokenAlone: Scenarios.Latency? { latency.first { $0.kind == .live && !$0.besideOthers } }

    private var baseline: Double { idle.first { $0.kind == WatcherKind.none }?.share ?? .nan }

    /// The highest idle cost above the baseline of B's stores at the default settings.
    private var worstIdle: Double {
        idle.filter { $0.kind == .store }.map { $0.share - baseline }.max() ?? .nan
    }

    /// Messages delivered per second, from the first message's stamp to the delivery of the last
    /// one delivered.
    private func deliveredPerSecond(_ run: Scenarios.Throughput) -> Double {
        run.delivered == 0 ? .nan : Double(run.delivered) / run.deliverySeconds
    }

    private func percent(_ share: Double) -> String {
        share.isFinite ? String(format: "%.3f%%", share * 100) : "n/a"
    }
}
