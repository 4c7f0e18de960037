import Foundation
import LiveRepository
import LiveSocial
import LiveSocialNetwork
import LiveSocialServer

/// Everything the sample's view models talk to: the signed-in client with its cache, the backend
/// (the embedded server with the other users acting on it, or a `livedata-server` on the network),
/// and the read markers.
///
/// Several apps, each signed in as a different user, can open one data folder at once: they
/// share the server's database, and each process's `EmbeddedServer` delivers the others' writes
/// to its client as real-time events.
///
/// Across machines (``SampleConfiguration/remote``), the client signs in to the server and talks
/// to it through `NetworkSocialAPI`; there is no server file, and nobody is simulated: the other
/// users are people in other terminals.
///
/// The app opens one with ``open(_:)``, over files in the data folder; tests make one with
/// ``init(server:client:readMarkers:activity:)`` over an in-memory server and a manual clock.
@MainActor
public final class SampleEnvironment {
    /// The embedded backend: an in-process server with its own database; nil across machines.
    public let server: EmbeddedServer?
    /// The network backend the client signed in to; nil with the embedded server.
    public let network: NetworkSocialAPI?
    /// The signed-in user's client: the cache, the repositories and the chat collections.
    public let client: SocialClient
    /// What the user has read of each channel.
    public let readMarkers: ReadMarkers
    /// The other users of the embedded server: their background activity and the simulator
    /// commands; nil across machines, where the other users are real.
    public let others: OtherUsers?
    /// What happened since the last run, in words: the other users' actions (or who else is
    /// signed in on the data folder), an older version's cache that was moved, and a damaged
    /// cache that was moved aside and rebuilt. Nil when there is nothing to tell.
    public internal(set) var launchNotice: String?
    /// The app's mark on its data folder, while it runs; nil for an environment made from parts.
    public internal(set) var session: SampleSession?
    /// The seed of the background activity.
    private var seed: UInt64 = 7
    private var activityTask: Task<Void, Never>?

    /// The signed-in user's id.
    public var userId: String { client.userId }

    /// Creates an environment over parts made by the caller (tests); call ``start(backgroundActivity:)``.
    public convenience init(server: EmbeddedServer, client: SocialClient, readMarkers: ReadMarkers, activity: SimulatedActivity) {
        self.init(
            server: server, network: nil, client: client, readMarkers: readMarkers,
            others: OtherUsers(server: server, userId: client.userId, activity: activity))
    }

    /// Creates an environment over a network backend, with nobody simulated.
    convenience init(network: NetworkSocialAPI, client: SocialClient, readMarkers: ReadMarkers) {
        self.init(server: nil, network: network, client: client, readMarkers: readMarkers, others: nil)
    }

    private init(
        server: EmbeddedServer?, network: NetworkSocialAPI?, client: SocialClient, readMarkers: ReadMarkers, others: OtherUsers?
    ) {
        self.server = server
        self.network = network
        self.client = client
        self.readMarkers = readMarkers
        self.others = others
    }

    /// Opens the app's environment in the configuration's data folder, creating the folder and
    /// seeding the server with the demo data on a first run.
    ///
    /// The server's database, `server.sqlite`, is shared by every user's app on the folder; the
    /// cache and the read markers are the user's own, in `users/<id>/`. An older version's
    /// shared cache is first moved to its owner or set aside (``LegacyCacheMigration``).
    ///
    /// On a later run the other users first take a few actions "while you were away", so the
    /// cached data the screens show first differs from the fresh data that follows; not when
    /// another user's app is running on the folder, since then nobody was away (the launch
    /// notice says who is signed in instead).
    ///
    /// Across machines (``SampleConfiguration/remote`` set) it signs in to the server instead;
    /// see ``openAcrossMachines(_:on:)``.
    ///
    /// - Throws: ``SampleError`` for an unknown user, or the error of a data file that cannot be
    ///   opened (the cache is rebuilt when damaged; the server's database is not touched).
    public static func open(_ configuration: SampleConfiguration) async throws -> SampleEnvironment {
        if let remote = configuration.remote { return try await openAcrossMachines(configuration, on: remote) }
        let folder = configuration.dataFolder
        let (server, isFirstRun) = try await openServer(configuration)
        let users = try await server.ids(of: .user)
        guard users.contains(configuration.userId) else {
            throw SampleError.unknownUser(configuration.userId, known: users)
        }
        var notices: [String] = []
        if let migration = try LegacyCacheMigration.migrate(dataFolder: folder, knownUsers: Set(users)) {
            notices.append(migration.notice)
        }
        let session = try SampleSession.begin(configuration)
        let othersHere = SampleSession.signedInUsers(in: folder).filter { $0 != configuration.userId }
        let sequence = try await server.latestSequence()
        let otherIds = EmbeddedServer.demoUserIds.filter { $0 != configuration.userId }
        let activity = SimulatedActivity(
            server: server, seed: configuration.seed &+ UInt64(sequence), interval: configuration.activityInterval ?? .seconds(4),
            userIds: otherIds)
        let client = try await SocialClient.open(
            api: server.connection(userId: configuration.userId), userId: configuration.userId,
            cache: .file(configuration.cacheURL))
        let others = OtherUsers(server: server, userId: configuration.userId, activity: activity)
        let environment = SampleEnvironment(
            server: server, network: nil, client: client, readMarkers: ReadMarkers(url: configuration.readMarkersURL),
            others: others)
        environment.session = session
        environment.seed = configuration.seed
        others.signedInUsers = { Set(SampleSession.signedInUsers(in: folder)) }
        if let recovery = client.store.recovery { notices.append("\(recovery)") }
        if !othersHere.isEmpty {
            notices.append("also signed in on this data folder: \(othersHere.joined(separator: ", "))")
        } else if !isFirstRun {
            let actions = try await others.act(times: 5)
            notices.append("while you were away: \(actions.count) things happened")
        }
        if !notices.isEmpty { environment.launchNotice = notices.joined(separator: "; ") }
        environment.start(backgroundActivity: configuration.activityInterval != nil)
        return environment
    }

    /// Opens the shared server's database, seeding it on a first run, and says whether it was one.
    ///
    /// Holds an exclusive lock on the data folder's `layout.lock` meanwhile, so that of several
    /// apps started at once on a new folder exactly one seeds the demo data.
    private static func openServer(_ configuration: SampleConfiguration) async throws -> (EmbeddedServer, isFirstRun: Bool) {
        let folder = configuration.dataFolder
        let lock: FileLock
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            lock = try FileLock.lock(folder.appendingPathComponent("layout.lock"), exclusive: true)
        } catch {
            throw SampleError.dataFolder(folder.path, reason: error.localizedDescription)
        }
        defer { lock.unlock() }
        let server: EmbeddedServer
        do {
            server = try EmbeddedServer(location: .file(configuration.serverURL), latency: configuration.latency)
        } catch {
            throw SampleError.serverDatabase(configuration.serverURL.path, reason: "\(error)")
        }
        let isFirstRun = try await server.ids(of: .user).isEmpty
        if isFirstRun { try await server.seedDemoData() }
        return (server, isFirstRun)
    }

    /// Starts applying real-time events and, when `backgroundActivity` is true, the other users'
    /// background activity: an action every `OtherUsers.activity.interval` of the server's clock.
    ///
    /// When several users' apps run on one data folder, only the app of the first of them (by
    /// id) acts, and never as a user who is signed in (see ``OtherUsers/actInBackground(signedIn:seed:)``).
    public func start(backgroundActivity: Bool) {
        client.startRealtime()
        guard backgroundActivity, activityTask == nil, let server, let others else { return }
        let clock = server.clock
        let activity = others.activity
        activityTask = Task { [weak self] in
            let interval = await activity.interval
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard let self else { return }
                await self.actInBackground()
            }
        }
    }

    /// One tick of the background activity.
    private func actInBackground() async {
        guard let server, let others else { return }
        let sequence = (try? await server.latestSequence()) ?? 0
        _ = try? await others.actInBackground(signedIn: others.signedInUsers(), seed: seed &+ UInt64(sequence))
    }

    /// Stops the background activity and real time, and ends the session: the user no longer
    /// counts as signed in on the data folder. The caches stay as they are.
    public func shutdown() {
        activityTask?.cancel()
        activityTask = nil
        client.stopRealtime()
        session?.end()
    }
}
