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
    /// How often process B's polling stores (the old default, beside the wake-ups) check for A's
    /// commits, ms.
    var pollMilliseconds = 10
    /// The numbers of stores in the watching process of the idle scenario.
    var storeCounts = [1, 10, 100]

    static let full = Settings(name: "full", commits: 1_000, grace: .seconds(2), idleSeconds: 10, burst: 50_000, burstGrace: .seconds(10))
    static let quick = Settings(name: "quick", commits: 200, grace: .seconds(1), idleSeconds: 3, burst: 5_000, burstGrace: .seconds(3))
}
