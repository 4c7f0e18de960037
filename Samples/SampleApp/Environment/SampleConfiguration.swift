import Foundation

/// How the sample runs: where its data lives, who signs in, and how the simulated backend behaves.
///
/// The defaults are the interactive app's: the per-user data folder, signed in as `ada`, a
/// backend answering after 300 ms, and other users acting every four seconds.
///
/// One data folder serves every user of the embedded server, each in their own terminal:
///
/// ```text
/// <data>/server.sqlite             the embedded server's database, shared by every process
/// <data>/users/<id>/cache.sqlite   each user's cache (pending and failed sends included)
/// <data>/users/<id>/read-markers.json
/// <data>/users/<id>/session.lock   held while that user's app runs
/// <data>/legacy/                   an older version's shared cache, when it was set aside
/// ```
///
/// Across machines (``remote`` set: `--server URL`) there is no server file: each user's folder
/// is under the server's, `<data>/servers/<host>-<port>/users/<id>/`, so that the caches of two
/// servers never mix.
public struct SampleConfiguration: Sendable, Hashable {
    /// The folder holding the embedded server's database and each user's folder.
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
    /// The network server to sign in to instead of the embedded one, or nil for the embedded
    /// server (the default). ``latency``, ``activityInterval`` and ``seed`` apply to the
    /// embedded server only.
    public var remote: RemoteServer?

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

    /// The embedded server's database in ``dataFolder``, shared by every user's app: the "remote"
    /// data survives a restart, and each process's server sees the others' writes.
    public var serverURL: URL { dataFolder.appendingPathComponent("server.sqlite") }
    /// The signed-in user's own folder: `users/<id>` in ``dataFolder``, or in the server's folder
    /// `servers/<host>-<port>` across machines.
    public var userFolder: URL {
        guard let remote else { return Self.userFolder(of: userId, in: dataFolder) }
        let serverFolder = dataFolder.appendingPathComponent("servers", isDirectory: true)
            .appendingPathComponent(remote.folderName, isDirectory: true)
        return Self.userFolder(of: userId, in: serverFolder)
    }
    /// The signed-in user's cache file in ``userFolder``.
    public var cacheURL: URL { userFolder.appendingPathComponent("cache.sqlite") }
    /// The file of the signed-in user's read markers (what they have read of each channel) in ``userFolder``.
    public var readMarkersURL: URL { userFolder.appendingPathComponent("read-markers.json") }
    /// The file an app of the signed-in user keeps locked while it runs, in ``userFolder``.
    public var sessionURL: URL { userFolder.appendingPathComponent("session.lock") }

    /// The folder of `userId` in `dataFolder`: `users/<id>`.
    public static func userFolder(of userId: String, in dataFolder: URL) -> URL {
        dataFolder.appendingPathComponent("users", isDirectory: true).appendingPathComponent(userId, isDirectory: true)
    }
}
