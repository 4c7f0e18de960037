import Foundation

/// How the sample runs: where its data lives, who signs in, and how the simulated backend behaves.
///
/// The defaults are the interactive app's: the per-user data folder, signed in as `ada`, a
/// backend answering after 300 ms, and other users acting every four seconds.
public struct SampleConfiguration: Sendable, Hashable {
    /// The folder holding the app's cache, the embedded server's database and the read markers.
    public var dataFolder: URL
    /// The signed-in user; one of the demo users.
    public var userId: String
    /// How long every request to the embedded server takes.
    public var latency: Duration
    /// The time between two actions of the other users, or nil for no background activity
    /// (the `/others`, `/reply` and `/flood` commands still act on demand).
    public var activityInterval: Duration?
    /// The seed of the other users' random actions.
    public var seed: UInt64

    /// Creates a configuration; every value but the folder has the interactive app's default.
    public init(
        dataFolder: URL, userId: String = "ada", latency: Duration = .milliseconds(300),
        activityInterval: Duration? = .seconds(4), seed: UInt64 = 7
    ) {
        self.dataFolder = dataFolder
        self.userId = userId
        self.latency = latency
        self.activityInterval = activityInterval
        self.seed = seed
    }

    /// The app's cache file in ``dataFolder``.
    public var cacheURL: URL { dataFolder.appendingPathComponent("cache.sqlite") }
    /// The embedded server's database in ``dataFolder``: the "remote" data survives a restart too.
    public var serverURL: URL { dataFolder.appendingPathComponent("server.sqlite") }
    /// The file of read markers (what the user has read of each channel) in ``dataFolder``.
    public var readMarkersURL: URL { dataFolder.appendingPathComponent("read-markers.json") }
}
