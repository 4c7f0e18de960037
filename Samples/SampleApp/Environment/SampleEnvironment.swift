import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// Everything the sample's view models talk to: the signed-in client with its cache, the embedded
/// server playing the backend, the other users acting on it, and the read markers.
///
/// The app opens one with ``open(_:)``, over files in the data folder; tests make one with
/// ``init(server:client:readMarkers:activity:)`` over an in-memory server and a manual clock.
@MainActor
public final class SampleEnvironment {
    /// The backend: an in-process server with its own database.
    public let server: EmbeddedServer
    /// The signed-in user's client: the cache, the repositories and the chat collections.
    public let client: SocialClient
    /// What the user has read of each channel.
    public let readMarkers: ReadMarkers
    /// The other users: their background activity and the simulator commands.
    public let others: OtherUsers
    /// What happened since the last run, in words: the other users' actions, and a damaged cache
    /// that was moved aside and rebuilt. Nil on a first run.
    public private(set) var launchNotice: String?
    private var activityTask: Task<Void, Never>?

    /// The signed-in user's id.
    public var userId: String { client.userId }

    /// Creates an environment over parts made by the caller (tests); call ``start(backgroundActivity:)``.
    public init(server: EmbeddedServer, client: SocialClient, readMarkers: ReadMarkers, activity: SimulatedActivity) {
        self.server = server
        self.client = client
        self.readMarkers = readMarkers
        self.others = OtherUsers(server: server, userId: client.userId, activity: activity)
    }

    /// Opens the app's environment in the configuration's data folder, creating the folder and
    /// seeding the server with the demo data on a first run.
    ///
    /// On a later run the other users first take a few actions "while you were away", so the
    /// cached data the screens show first differs from the fresh data that follows.
    ///
    /// - Throws: ``SampleError`` for an unknown user, or the error of a data file that cannot be
    ///   opened (the cache is rebuilt when damaged; the server's database is not touched).
    public static func open(_ configuration: SampleConfiguration) async throws -> SampleEnvironment {
        let folder = configuration.dataFolder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SampleError.dataFolder(folder.path, reason: error.localizedDescription)
        }
        let server: EmbeddedServer
        do {
            server = try EmbeddedServer(location: .file(configuration.serverURL), latency: configuration.latency)
        } catch {
            throw SampleError.serverDatabase(configuration.serverURL.path, reason: "\(error)")
        }
        let isFirstRun = try await server.ids(of: .user).isEmpty
        if isFirstRun { try await server.seedDemoData() }
        guard try await server.record(User.self, id: configuration.userId) != nil else {
            throw SampleError.unknownUser(configuration.userId, known: try await server.ids(of: .user))
        }
        let sequence = try await server.latestSequence()
        let others = EmbeddedServer.demoUserIds.filter { $0 != configuration.userId }
        let activity = SimulatedActivity(
            server: server, seed: configuration.seed &+ UInt64(sequence), interval: configuration.activityInterval ?? .seconds(4),
            userIds: others)
        let client = try SocialClient(
            api: server.connection(userId: configuration.userId), userId: configuration.userId,
            cache: .file(configuration.cacheURL))
        let environment = SampleEnvironment(
            server: server, client: client, readMarkers: ReadMarkers(url: configuration.readMarkersURL), activity: activity)
        var notices: [String] = []
        if let recovery = client.store.recovery { notices.append("\(recovery)") }
        if !isFirstRun {
            let actions = try await environment.others.act(times: 5)
            notices.append("while you were away: \(actions.count) things happened")
        }
        if !notices.isEmpty { environment.launchNotice = notices.joined(separator: "; ") }
        environment.start(backgroundActivity: configuration.activityInterval != nil)
        return environment
    }

    /// Starts applying real-time events and, when `backgroundActivity` is true, the other users'
    /// background activity (an action every `OtherUsers.activity.interval` of the server's clock).
    public func start(backgroundActivity: Bool) {
        client.startRealtime()
        guard backgroundActivity, activityTask == nil else { return }
        let activity = others.activity
        activityTask = Task { await activity.run() }
    }

    /// Stops the background activity and real time; the caches stay as they are.
    public func shutdown() {
        activityTask?.cancel()
        activityTask = nil
        client.stopRealtime()
    }
}
