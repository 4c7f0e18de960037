import BenchmarkSupport

/// The numbers of one run, and how they are printed: a table per scenario.
struct Report {
    let settings: Settings
    var cores = 0
    var serverLoad: Duration?
    var cacheWrites: Duration?
    var randomOpenings: [OpeningScenario.Sample] = []
    var newestOpenings: [OpeningScenario.Sample] = []
    var catchUps: [CatchUpScenario.Round] = []
    var hugeGap: CatchUpScenario.HugeGap?

    func text() -> String {
        var lines: [String] = []
        let load = serverLoad.map { "server bulk-loaded in \(formatted(seconds($0))) s" } ?? "no server load"
        let cache = cacheWrites.map {
            "client cache filled from server pages in \(formatted(seconds($0))) s of writes "
                + "(\(grouped(ChatFixture.pageSize)) messages per write)"
        } ?? "no cache built"
        lines.append("ChatVersus (\(settings.name)): one channel of \(grouped(settings.messages)) messages on the "
            + "embedded server (no latency) and in the client's cache, \(cores) cores; \(load); \(cache).")

        lines += ["", "1. Opening a MessageCollection (20 previous, 20 next): from createMessageCollection to each "
            + "handler, ms (\(settings.warmUpOpenings) warm-up opening\(settings.warmUpOpenings == 1 ? "" : "s") not counted)", ""]
        lines += ["| starting point | openings | cacheResultHandler median | p90 | apiResultHandler median | p90 |",
                  "|---|---:|---:|---:|---:|---:|"]
        for (title, samples) in [("random, across the history (seeded)", randomOpenings),
                                 ("newest messages (.infinity)", newestOpenings)] {
            let cache = samples.map(\.cache)
            let api = samples.map(\.api)
            lines.append("| \(title) | \(samples.count) | \(formatted(Statistics.median(cache))) | "
                + "\(formatted(Statistics.percentile(cache, 90))) | \(formatted(Statistics.median(api))) | "
                + "\(formatted(Statistics.percentile(api, 90))) |")
        }

        lines += ["", "2. Catch-up: a collection at the newest messages misses \(settings.missedMessages) messages "
            + "while disconnected; from reconnect() to the delegate call that brings the last of them "
            + "(source .changelog), ms", ""]
        lines += ["| missed messages | rounds | median | p90 | min | max | delegate calls per round |",
                  "|---:|---:|---:|---:|---:|---:|---:|"]
        let times = catchUps.map(\.milliseconds)
        let calls = Set(catchUps.map(\.calls)).sorted().map(String.init).joined(separator: ", ")
        lines.append("| \(settings.missedMessages) | \(catchUps.count) | \(formatted(Statistics.median(times))) | "
            + "\(formatted(Statistics.percentile(times, 90))) | \(formatted(times.min() ?? .nan)) | "
            + "\(formatted(times.max() ?? .nan)) | \(calls) |")

        if let hugeGap {
            lines += ["", "Huge gap: \(hugeGap.missed) missed messages (threshold \(hugeGap.threshold)): "
                + "didDetectHugeGap after \(formatted(hugeGap.milliseconds)) ms, "
                + "events \(hugeGap.eventSeen ? "holds .hugeGapDetected" : "does NOT hold .hugeGapDetected"), "
                + "no message added."]
        }
        return lines.joined(separator: "\n")
    }
}
