/// The sizes of one run: the full run the goals are stated for, or the quick one for CI.
struct Settings {
    var name: String
    /// Messages in the cache of scenario 1, spread over ``channels`` channels.
    var cachedMessages: Int
    var channels: Int
    /// Channels timed in scenario 1, after ``warmUpChannels`` that are not counted.
    var timedChannels: Int
    var warmUpChannels: Int
    /// Events per run of scenario 2, and runs per contender (the median is reported).
    var events: Int
    var eventRounds: Int
    /// The most one GRDB run of scenario 2 may take (it would not finish 100,000 events in minutes).
    var eventBudget: Duration
    /// Rows in the window of scenario 3.
    var memoryRows: Int
    /// Calls timed per size in scenario 4, for ours and for the standard library.
    var diffCalls: Int
    var standardDiffCalls: Int
    /// Scenario 5: rows in the scrolled window, and events applied while it scrolls.
    var stallWindowRows: Int
    var stallEvents: Int

    /// What the goals are stated for; `rounds` runs of scenario 2 per contender.
    static func full(rounds: Int?) -> Settings {
        Settings(
            name: "full", cachedMessages: 1_000_000, channels: 1_000, timedChannels: 200, warmUpChannels: 10,
            events: 100_000, eventRounds: rounds ?? 3, eventBudget: .seconds(5), memoryRows: 100_000, diffCalls: 101, standardDiffCalls: 5,
            stallWindowRows: 50_000, stallEvents: 100_000)
    }

    /// A tenth of the data (half the window), for CI: under 20 seconds.
    static func quick(rounds: Int?) -> Settings {
        Settings(
            name: "quick", cachedMessages: 100_000, channels: 1_000, timedChannels: 100, warmUpChannels: 10,
            events: 10_000, eventRounds: rounds ?? 1, eventBudget: .seconds(1.5), memoryRows: 50_000, diffCalls: 21, standardDiffCalls: 3,
            stallWindowRows: 20_000, stallEvents: 20_000)
    }

    /// The scenario 4 sizes: rows in the window and changes between the snapshots.
    let diffSizes = [(rows: 10_000, changes: 100), (rows: 100_000, changes: 1_000)]
}
