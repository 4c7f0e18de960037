/// The sizes of one run: the full one, or the quick one for CI (a few seconds).
struct Settings {
    var name: String
    /// Commits process A makes in the latency scenario, one `store.write` each, with a pause of
    /// ``minimumPauseMicroseconds``…``maximumPauseMicroseconds`` (seeded random) after each.
    var commits: Int
    var minimumPauseMicroseconds = 2_000
    var maximumPauseMicroseconds = 8_000
    /// How long process B keeps waiting for commits it has not seen once A has exited.
    var grace: Duration
    /// How long each idle watcher is measured.
    var idleSeconds: Int
    /// Messages A writes as fast as it can in the throughput scenario, and how long B waits for
    /// them after A exits.
    var burst: Int
    var burstGrace: Duration
    /// How often process B's stores check for A's commits, ms; nil: the default setting.
    var pollMilliseconds: Int?

    /// What B's stores are set to, for the titles.
    var detection: String {
        pollMilliseconds.map { "polling every \($0) ms" } ?? "default settings"
    }

    static let full = Settings(name: "full", commits: 1_000, grace: .seconds(2), idleSeconds: 10, burst: 50_000, burstGrace: .seconds(10))
    static let quick = Settings(name: "quick", commits: 200, grace: .seconds(1), idleSeconds: 2, burst: 5_000, burstGrace: .seconds(3))
}
