import BenchmarkSupport

/// The numbers of one run, printed as three tables and the goals.
struct Report {
    let settings: Settings
    var cores = 0
    var latency: [Scenarios.Latency] = []
    var idle: [Scenarios.Idle] = []
    var throughput: Scenarios.Throughput?

    func text() -> String {
        var lines = ["CrossProcessVersus (\(settings.name), B's stores at \(settings.detection)): process A (a child) writes to a cache file with its own "
            + "LiveStore; process B (this one) watches the same file. \(cores) cores."]

        lines += ["", "1. Latency: from a commit in process A to the observer call in process B, "
            + "\(grouped(settings.commits)) commits of one message each, "
            + "\(settings.minimumPauseMicroseconds / 1_000)–\(settings.maximumPauseMicroseconds / 1_000) ms apart; "
            + "the watchers run side by side in B: ms", ""]
        lines += ["| watcher in process B | commits seen | p50 | p99 | max | observer calls |", "|---|---:|---:|---:|---:|---:|"]
        for result in latency {
            let values = result.milliseconds
            lines.append("| \(result.kind.title(settings.detection)) | \(grouped(result.seen)) of \(grouped(settings.commits)) | "
                + "\(formatted(Statistics.median(values))) | \(formatted(Statistics.percentile(values, 99))) | "
                + "\(formatted(values.max() ?? .nan)) | \(grouped(result.deliveries)) |")
        }

        lines += ["", "2. Idle cost: a process watching a file nobody writes, \(settings.idleSeconds) s "
            + "(getrusage CPU time over wall time; one process per row, all at once)", ""]
        lines += ["| process B | CPU: ms | % of one core | above the baseline: % of one core | observer calls |", "|---|---:|---:|---:|---:|"]
        let baseline = idle.first { $0.kind == WatcherKind.none }?.share ?? .nan
        for result in idle {
            let above = result.kind == WatcherKind.none ? "" : percent(result.share - baseline)
            lines.append("| \(result.kind.title(settings.detection)) | \(formatted(result.cpuSeconds * 1_000)) | \(percent(result.share)) | \(above) | "
                + "\(grouped(result.calls)) |")
        }

        if let run = throughput {
            lines += ["", "3. Throughput: process A queues \(grouped(run.messages)) messages at once with enqueueWrite "
                + "(committed in shared transactions); B's LiveCollection shows them", ""]
            lines += ["| measure | value |", "|---|---:|"]
            lines.append("| messages B's collection showed | \(grouped(run.delivered)) of \(grouped(run.messages)) |")
            lines.append("| A: first message's stamp to the last commit: s | \(formatted(run.writeSeconds)) |")
            lines.append("| A: messages written per second | \(formatted(Double(run.messages) / run.writeSeconds)) |")
            lines.append("| B: first message's stamp (in A) to the observer call showing the last: s | \(formatted(run.deliverySeconds)) |")
            lines.append("| B: messages delivered per second | \(formatted(deliveredPerSecond(run))) |")
            lines.append("| B: observer calls | \(grouped(run.deliveries)) |")
            lines.append("| a message's latency, stamp to observer call: p50 / max, ms | "
                + "\(formatted(Statistics.median(run.milliseconds))) / \(formatted(run.milliseconds.max() ?? .nan)) |")
        }
        return lines.joined(separator: "\n")
    }

    func goals() -> String {
        var lines = ["", "Goals" + (settings.name == "full" ? ":" : " (quick run: fewer commits and a shorter idle time):")]
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
        let thisRun = settings.pollMilliseconds == nil ? "" : " (this run: \(settings.detection))"
        if let live = latency.first(where: { $0.kind == .live }) {
            if live.seen == 0 {
                lines.append("- latency p99 at most 20 ms at the default settings\(thisRun): n/a, B's LiveStore saw none of A's commits")
            } else {
                let p99 = Statistics.percentile(live.milliseconds, 99)
                lines.append("- latency p99 at most 20 ms at the default settings\(thisRun): \(formatted(p99)) ms, "
                    + "\(grouped(live.seen)) of \(grouped(settings.commits)) commits seen, "
                    + verdict(p99 <= 20 && live.seen == settings.commits))
            }
        }
        let baseline = idle.first { $0.kind == WatcherKind.none }?.share
        if let baseline, let live = idle.first(where: { $0.kind == .live }) {
            let cost = live.share - baseline
            lines.append("- idle cost of watching at most 0.5% of a core: \(percent(cost)) above the baseline, "
                + verdict(cost <= 0.005))
        }
        if let run = throughput {
            let rate = deliveredPerSecond(run)
            lines.append("- at least 5,000 messages a second delivered across processes: "
                + (run.delivered == 0 ? "n/a, B's collection showed none of A's messages"
                    : "\(formatted(rate)) messages/s (\(grouped(run.delivered)) of \(grouped(run.messages))), "
                        + verdict(rate >= 5_000 && run.delivered == run.messages)))
        }
        return lines.joined(separator: "\n")
    }

    /// Messages delivered per second, from the first message's stamp to the delivery of the last
    /// one delivered.
    private func deliveredPerSecond(_ run: Scenarios.Throughput) -> Double {
        run.delivered == 0 ? .nan : Double(run.delivered) / run.deliverySeconds
    }

    private func percent(_ share: Double) -> String {
        share.isFinite ? formatted(share * 100) + "%" : "n/a"
    }
}
