/// The sizes of one run: the full one, or the quick one for CI.
struct Settings {
    var name: String
    /// Messages in the one channel, on the server and in the client's cache.
    var messages: Int
    /// Openings timed at seeded random starting points, and at the newest messages (`.infinity`),
    /// after ``warmUpOpenings`` at random points that are not counted.
    var randomOpenings: Int
    var newestOpenings: Int
    var warmUpOpenings: Int
    /// Catch-up rounds timed (the median is reported).
    var catchUpRounds: Int
    /// Messages missed in each catch-up round: one under the default huge-gap threshold (300).
    let missedMessages = 299
    /// Messages missed in the huge-gap check: one over the threshold.
    let hugeGapMessages = 301

    /// Fewer openings at the newest messages than at random points: at 1,000,000 messages each
    /// start takes about 6 s (see the README).
    static let full = Settings(
        name: "full", messages: 1_000_000, randomOpenings: 25, newestOpenings: 9, warmUpOpenings: 2, catchUpRounds: 9)

    /// A tenth of the messages and fewer rounds, for CI.
    static let quick = Settings(
        name: "quick", messages: 100_000, randomOpenings: 10, newestOpenings: 5, warmUpOpenings: 1, catchUpRounds: 3)
}
