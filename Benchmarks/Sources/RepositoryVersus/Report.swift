import BenchmarkSupport

/// The numbers of one run, and how they are printed: a table per scenario, then the goals.
struct Report {
    let settings: Settings
    var cores = 0
    var cacheBuild: Duration?
    var firstRead: [FirstReadContender: [Double]] = [:]
    var liveEvents: [EventScenario.Run] = []
    var grdbEvents: [EventScenario.Run] = []
    var memory: MemoryReading?
    /// Per diff size: milliseconds per call, ours and the standard library's.
    var diffs: [(rows: Int, changes: Int, ours: [Double], standard: [Double])] = []
    var stall: StallScenario.Run?

    func text() -> String {
        var lines: [String] = []
        let build = cacheBuild.map { "cache built through LiveStore in \(formatted(seconds($0))) s of writes" } ?? "no cache built"
        lines.append("RepositoryVersus (\(settings.name)): \(grouped(settings.cachedMessages)) cached messages over "
            + "\(grouped(settings.channels)) channels, \(cores) cores; \(build) "
            + "(\(grouped(CacheBuilder.batchSize)) messages per write).")

        lines += ["", "1. Query call to first local callback, \(settings.timedChannels) random channels: ms", ""]
        lines += ["| contender | median | p90 |", "|---|---:|---:|"]
        for contender in FirstReadContender.allCases {
            let samples = firstRead[contender] ?? []
            lines.append("| \(contender.title) | \(formatted(Statistics.median(samples))) | "
                + "\(formatted(Statistics.percentile(samples, 90))) |")
        }

        lines += ["", "2. \(grouped(settings.events)) message-created events, one write each, while observed "
            + "(median of \(settings.eventRounds) run\(settings.eventRounds == 1 ? "" : "s"); "
            + "a GRDB run stops after \(formatted(seconds(settings.eventBudget))) s)", ""]
        lines += ["| contender | events/s | seconds | last write committed: s | events reflected | observer deliveries |",
                  "|---|---:|---:|---:|---:|---:|"]
        for (title, runs) in [("LiveStore.enqueueWrite (batched into shared transactions) + LiveCollection", liveEvents),
                              ("GRDB asyncWrite (batched into shared transactions the same way) + ValueObservation (newest 20)", grdbEvents)] {
            guard let run = medianRun(runs) else { continue }
            let reflected = run.reflected == settings.events
                ? "all" : "\(grouped(run.reflected)) (budget ran out)"
            let committed = run.writeSeconds.map(formatted) ?? "n/a"
            lines.append("| \(title) | \(formatted(run.eventsPerSecond)) | \(formatted(run.seconds)) | \(committed) | \(reflected) | "
                + "\(grouped(run.deliveries)) |")
        }

        lines += ["", "3. Resident memory of a \(grouped(settings.memoryRows))-row window (own process): MiB", ""]
        if let memory {
            lines += ["| measure | value |", "|---|---:|"]
            lines.append("| RSS at process start | \(mebibytes(memory.atStart)) |")
            lines.append("| RSS just before opening the collection (store opened) | \(mebibytes(memory.beforeOpening)) |")
            lines.append("| RSS with the window open and 5 rows read | \(mebibytes(memory.withWindow)) |")
            lines.append("| window open − process start | \(mebibytes(memory.aboveStart)) |")
            lines.append("| window open − just before opening | \(mebibytes(memory.aboveOpening)) |")
            lines.append("| first callback of the window: ms | \(formatted(memory.firstCallbackMilliseconds)) |")
        } else {
            lines.append("n/a: no /proc/self/statm on this platform")
        }

        lines += ["", "4. Change sets, median per call: ms", ""]
        lines += ["| window | CollectionDiffing.change | Swift difference(from:) |", "|---|---:|---:|"]
        for diff in diffs {
            lines.append("| \(grouped(diff.rows)) rows, \(grouped(diff.changes)) changes | "
                + "\(formatted(Statistics.median(diff.ours))) | \(formatted(Statistics.median(diff.standard))) |")
        }
        if let growth = diffGrowth {
            lines.append("| growth for 10× the rows and changes | \(formatted(growth.ours))× | \(formatted(growth.standard))× |")
        }
        if let stall {
            lines += [""] + Self.stallLines(stall, rows: settings.stallWindowRows, events: settings.stallEvents)
        }
        return lines.joined(separator: "\n")
    }

    /// The table of scenario 5.
    static func stallLines(_ run: StallScenario.Run, rows: Int, events: Int) -> [String] {
        var lines = ["5. Main-actor stalls: scrolling a \(grouped(rows))-row window (40 rows a frame at 240 Hz) while "
            + "\(grouped(events)) real-time events are applied (\(formatted(run.burstSeconds)) s): ms", ""]
        lines += ["| measure | value |", "|---|---:|"]
        lines.append("| frames | \(grouped(run.frameReads.count)) (\(grouped(run.rowsRead)) rows read, \(grouped(run.missing)) missing) |")
        lines.append("| a frame's reads: median | \(formatted(Statistics.median(run.frameReads))) |")
        lines.append("| a frame's reads: p99 | \(formatted(Statistics.percentile(run.frameReads, 99))) |")
        lines.append("| a frame's reads: longest | \(formatted(run.frameReads.max() ?? .nan)) |")
        lines.append("| longest lateness of a frame (the main actor busy with reads or deliveries) | \(formatted(run.longestLateness)) |")
        return lines
    }

    // MARK: The goals

    /// Most that the change set may grow for 10× the input and still count as linear:
    /// linear is 10×, n log n about 12.5×, quadratic 100×.
    static let linearGrowthLimit = 15.0

    func goals() -> String {
        var lines = ["", "Goals" + (settings.name == "full" ? ":" : " (quick run: smaller than the goals are stated for):")]
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

        let firstMedian = Statistics.median(firstRead[.liveCollection] ?? [])
        lines.append("- first local callback, median at most 1 ms (\(grouped(settings.cachedMessages)) messages): "
            + "\(formatted(firstMedian)) ms, \(verdict(firstMedian <= 1))")

        let rate = medianRun(liveEvents)?.eventsPerSecond ?? .nan
        let complete = liveEvents.allSatisfy { $0.reflected == settings.events }
        lines.append("- at least 50,000 events/s, every one reflected: \(formatted(rate)) events/s, "
            + (complete ? "the collection reached \(grouped(settings.events + 1)) rows in every run"
                : "some events were not reflected within the budget")
            + ", \(verdict(rate >= 50_000 && complete))")

        if let memory {
            let limit = 64 * 1_048_576
            lines.append("- a \(grouped(memory.rows))-row window at most 64 MiB above the process's start: "
                + "\(mebibytes(memory.aboveStart)) MiB (\(mebibytes(memory.aboveOpening)) MiB above the point just "
                + "before opening it), \(verdict(memory.aboveStart <= limit))")
        } else {
            lines.append("- window memory: not measured on this platform")
        }

        if let small = diffs.first {
            let median = Statistics.median(small.ours)
            lines.append("- change set for \(grouped(small.rows)) rows and \(small.changes) changes at most 5 ms: "
                + "\(formatted(median)) ms, \(verdict(median <= 5))")
        }
        if let growth = diffGrowth {
            lines.append("- change sets in linear time: \(formatted(growth.ours))× for 10× the rows and changes "
                + "(linear 10×, n log n ≈12.5×, quadratic 100×; limit \(formatted(Self.linearGrowthLimit))×), "
                + "\(verdict(growth.ours <= Self.linearGrowthLimit))")
        }
        if let stall {
            let longest = stall.frameReads.max() ?? .nan
            lines.append("- scrolling a \(grouped(settings.stallWindowRows))-row window during a burst: no frame's reads over 4 ms "
                + "(a frame at 240 Hz): longest \(formatted(longest)) ms, \(verdict(longest <= 4 && stall.missing == 0))")
        }
        return lines.joined(separator: "\n")
    }

    private var diffGrowth: (ours: Double, standard: Double)? {
        guard diffs.count == 2 else { return nil }
        return (Statistics.median(diffs[1].ours) / Statistics.median(diffs[0].ours),
                Statistics.median(diffs[1].standard) / Statistics.median(diffs[0].standard))
    }

    /// The run with the median rate (the lower middle one of an even count).
    private func medianRun(_ runs: [EventScenario.Run]) -> EventScenario.Run? {
        runs.sorted { $0.eventsPerSecond < $1.eventsPerSecond }.dropFirst((runs.count - 1) / 2).first
    }
}
