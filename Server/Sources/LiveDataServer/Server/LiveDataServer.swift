import Foundation
import Hummingbird
import LiveDataPostgres
import LiveRepository
import LiveSocialServer
import Logging
import NIOCore
import ServiceLifecycle

/// The network server: LiveSocialServer's rules, as an ``EmbeddedServer`` on a file in the data
/// folder, behind HTTP and Server-Sent Events, with identity and limits.
///
/// Every request but `GET /health` and `POST /v1/sessions` needs a session token; the acting
/// user is the token's, and each request goes through `socialServer.connection(userId:)`, so the
/// rules of reads, writes and events are the embedded server's, in one copy. The routes are
/// those of WIRE-CONTRACT.md and `Server/openapi.yaml`.
///
/// Open one with ``open(_:)``, then ``run(onListening:)`` until the task is cancelled.
public final class LiveDataServer: Sendable {
    /// The configuration it was opened with.
    public let configuration: ServerConfiguration
    /// The social data and its rules.
    public let socialServer: EmbeddedServer
    /// Users, password hashes, sessions and idempotency keys.
    public let identity: IdentityStore
    let limiter: RateLimiter
    let signInLimiter: RateLimiter
    let signInTotalLimiter: RateLimiter
    let streams = StreamRegistry()
    /// Each change event's stream frame, encoded once for all the streams it goes to.
    let frames = FrameCache()
    let idempotency = IdempotencyGate()
    /// The PostgreSQL store under `socialServer`, with `--postgres`: ``close()`` closes it.
    private let postgresStore: PostgresServerStore?

    /// The social data's file name in the data folder.
    public static let socialFileName = "server.sqlite"
    /// The identity file's name in the data folder.
    public static let identityFileName = "identity.sqlite"

    private init(
        configuration: ServerConfiguration, socialServer: EmbeddedServer, identity: IdentityStore,
        postgresStore: PostgresServerStore?
    ) {
        self.configuration = configuration
        self.postgresStore = postgresStore
        self.socialServer = socialServer
        self.identity = identity
        self.limiter = RateLimiter(
            perSecond: configuration.rateLimitPerSecond, burst: configuration.rateLimitBurst, now: configuration.now)
        self.signInLimiter = RateLimiter(
            perSecond: configuration.signInPerSecond, burst: configuration.signInBurst, now: configuration.now)
        self.signInTotalLimiter = RateLimiter(
            perSecond: configuration.signInTotalPerSecond, burst: configuration.signInTotalBurst, now: configuration.now)
    }

    /// Opens the data folder (creating it, readable by its owner only, if missing).
    ///
    /// On the first start (no user in the identity file) it fills the social data with the demo
    /// data, gives each demo user a random password, prints each pair once and writes them to
    /// `<data>/demo-credentials` (mode 0600).
    ///
    /// - Throws: ``ServerSetupError`` or a SQLite error when the folder or its files cannot be used.
    public static func open(_ configuration: ServerConfiguration) async throws -> LiveDataServer {
        let folder = configuration.dataFolder
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServerSetupError("cannot create the data folder \(folder.path): \(error.localizedDescription)")
        }
        let identityFile = folder.appendingPathComponent(identityFileName)
        let identity = try IdentityStore(
            location: .file(identityFile), hasher: configuration.passwordHasher,
            tokenLifetime: configuration.tokenLifetime, now: configuration.now)
        // Password hashes and token digests: its owner's only, even in a folder others may read
        // (SQLite gives its journal files the same mode).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: identityFile.path)
        let socialServer: EmbeddedServer
        var postgresStore: PostgresServerStore?
        if let postgres = configuration.postgres {
            // Shared with other instances: their changes arrive through the listener `run` starts.
            let store = try await PostgresServerStore.open(postgres)
            postgresStore = store
            socialServer = try await EmbeddedServer(store: store)
        } else {
            // The network server owns its file: no other process writes it, so it does not poll for others' commits.
            socialServer = try EmbeddedServer(
                location: .file(folder.appendingPathComponent(socialFileName)), externalChanges: .off)
        }
        let server = LiveDataServer(
            configuration: configuration, socialServer: socialServer, identity: identity, postgresStore: postgresStore)
        do {
            if try identity.userIds().isEmpty {
                try await server.createDemoUsers()
            }
        } catch {
            await server.close()
            throw error
        }
        return server
    }

    /// Closes the PostgreSQL store's connection and ends its thread (with `--postgres`; the
    /// SQLite files close when the server is released). Call it once, after ``run(onListening:)``
    /// has returned, and use the server no more.
    public func close() async {
        guard let store = postgresStore else { return }
        try? await store.thread.perform { store.close() }
    }

    /// The first start: demo data, and a random password for each demo user.
    private func createDemoUsers() async throws {
        try await socialServer.seedDemoData()
        let credentials = DemoCredentials(userIds: EmbeddedServer.demoUserIds)
        // The file first: a start interrupted before the passwords are stored finds no user
        // next time and makes a new file, so the file never lists passwords that do not work.
        let file = configuration.dataFolder.appendingPathComponent(DemoCredentials.fileName)
        try? FileManager.default.removeItem(at: file)
        try credentials.save(into: configuration.dataFolder)
        for pair in credentials.pairs {
            try identity.setPassword(pair.password, for: pair.userId)
        }
        configuration.print("first start: created the demo users (also in \(file.path), mode 0600):")
        for pair in credentials.pairs {
            configuration.print("  \(pair.userId) \(pair.password)")
        }
    }

    /// Serves requests until the calling task is cancelled.
    ///
    /// - Parameter onListening: called once with the port when the server accepts connections
    ///   (after printing `listening on http://HOST:PORT`).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        var logger = Logger(label: "livedata-server")
        // Requests are not logged: their headers carry tokens and their bodies passwords.
        logger.logLevel = .warning
        let host = configuration.host
        let print = configuration.print
        let application = Application(
            responder: APIResponder(server: self),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "livedata-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                print("listening on http://\(host):\(port)")
                onListening(port)
            },
            logger: logger)
        // Stopping is graceful: open event streams end, requests in flight finish, then the
        // server closes (a cancelled Application would log each open connection as an error).
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let streams = self.streams
        // On PostgreSQL: one listening connection hands this instance's clients every instance's changes.
        let listener = configuration.postgres.map { location in
            let (server, store) = (socialServer, postgresStore)
            return Task { await PostgresChangeListener(server: server, location: location, store: store).run() }
        }
        defer { listener?.cancel() }
        // In a task of its own, so that the caller's cancellation reaches it only as a graceful shutdown.
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            streams.finishAll()
            Task { await group.triggerGracefulShutdown() }
        }
        streams.finishAll()
    }
}
