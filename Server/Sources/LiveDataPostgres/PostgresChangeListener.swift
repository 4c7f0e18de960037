import LiveSocialServer
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// Hands an instance's clients the changes that every instance commits: one listening
/// connection per instance, on ``PostgresServerStore/notificationChannel``.
///
/// Each notice (and each start of listening) makes the server read the change log after the
/// last entry it published (`EmbeddedServer.publishExternalChanges()`), so the log, not the
/// notice, says what happened: notices that arrive together are read in one go, and a notice
/// that is lost costs nothing. A listening connection that is lost (PostgreSQL restarted, the
/// network cut) ends the notification sequence with an error; the listener connects again
/// after ``retryDelay`` and, once listening, catches up from the log. A poll every
/// ``pollInterval`` bounds how late a change can be if a connection dies silently.
///
/// Given the server's ``store``, a notice of a sequence number up to the store's
/// ``PostgresServerStore/lastOwnSequence`` is passed over: the server's own write published
/// every change up to that number already.
public struct PostgresChangeListener: Sendable {
    /// The server that publishes the changes.
    public let server: EmbeddedServer
    /// The database to listen to.
    public let location: PostgresLocation
    /// How long to wait before connecting again.
    public var retryDelay: Duration
    /// How often the log is read even without a notice.
    public var pollInterval: Duration
    /// The server's store, if it is a ``PostgresServerStore``.
    public let store: PostgresServerStore?
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup

    /// A listener for `server`, whose store is on `location` (`store`, when the caller has it).
    public init(
        server: EmbeddedServer, location: PostgresLocation, store: PostgresServerStore? = nil, retryDelay: Duration = .milliseconds(250),
        pollInterval: Duration = .seconds(2), eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "livedata-postgres-listener")
    ) {
        self.server = server
        self.location = location
        self.store = store
        self.retryDelay = retryDelay
        self.pollInterval = pollInterval
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Listens until the calling task is cancelled.
    ///
    /// - Parameter onListening: called each time a listening connection is ready (after its
    ///   catch-up was asked for); for tests.
    public func run(onListening: @escaping @Sendable () -> Void = {}) async {
        // Notices become kicks; kicks that pile up while the log is read are read as one.
        let (kicks, kick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in kicks {
                    _ = try? await server.publishExternalChanges()
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    kick.yield()
                }
            }
            group.addTask {
                var attempt = 0
                while !Task.isCancelled {
                    attempt += 1
                    await listenOnce(attempt: attempt, kick: kick, onListening: onListening)
                    if Task.isCancelled { break }
                    try? await Task.sleep(for: retryDelay)
                }
            }
            _ = await group.next()
            group.cancelAll()
            kick.finish()
        }
    }

    /// Whether a notice announces changes the server's own writes have published (its payload is
    /// the last sequence number the announcing transaction committed).
    private func isOwn(_ notification: PostgresNotification) -> Bool {
        guard let store, let sequence = Int64(notification.payload) else { return false }
        return sequence <= store.lastOwnSequence
    }

    private func listenOnce(
        attempt: Int, kick: AsyncStream<Void>.Continuation, onListening: @Sendable () -> Void
    ) async {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: eventLoopGroup.next(), configuration: PostgresServerStore.configuration(location), id: attempt,
                logger: logger)
        } catch {
            logger.warning("cannot connect to listen for changes: \(String(reflecting: error))")
            return
        }
        do {
            try await withTaskCancellationHandler {
                try await connection.listen(on: PostgresServerStore.notificationChannel) { notifications in
                    // Listening from here on: what committed before is read from the log now.
                    kick.yield()
                    onListening()
                    for try await notification in notifications where !isOwn(notification) { kick.yield() }
                }
            } onCancel: {
                _ = connection.close() as EventLoopFuture<Void>
            }
        } catch {
            if !Task.isCancelled { logger.warning("the listening connection was lost: \(String(reflecting: error))") }
        }
        try? await connection.close()
    }
}
