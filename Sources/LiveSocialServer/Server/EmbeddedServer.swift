import Foundation
import LiveRepository
import LiveSocial

/// An in-process server of the social domain, with its own SQLite database.
///
/// It implements the server side of `SocialAPI`: ``connection(userId:)`` hands out
/// a ``Connection`` that an app or a test uses as its backend, signed in as one user. Writes
/// made through any connection, or as another user with ``perform(_:as:)``, go to the
/// server database, get the next number of a server-wide change sequence, and reach every
/// connected client as real-time events.
///
/// Everything about the network is simulated and under control:
/// - time: all waiting goes through ``clock``; with a ``ManualClock`` nothing happens until
///   the test advances it, and timestamps are ``epoch`` plus the clock's elapsed time;
/// - latency: ``setLatency(_:)`` delays every request by a duration of clock time;
/// - failures: ``failNextRequests(_:message:)``, ``failRequests(_:message:)``,
///   ``dropNextResponses(_:)`` and ``rejectMessages(containing:reason:)``;
/// - connectivity: ``disconnect()`` makes requests throw `SocialAPIError.offline` and
///   drops real-time events (clients catch up with `changes(since:limit:scope:)`); ``reconnect()``.
///
/// Timestamps never repeat: each write gets at least a millisecond more than the previous one,
/// so records sorted by `createdAt` keep the order they were written in.
///
/// Several servers, in one process or in several, can open one file at once (see
/// <doc:SharingAServerFile>): each delivers to its own connections the events of every write
/// to the file, its own and the others', in sequence order. It notices the others' commits as
/// its `externalChanges` setting says (by default, woken by each commit, as a `LiveStore` is),
/// or when ``publishExternalChanges()`` is called.
public actor EmbeddedServer {
    /// The clock all waiting goes through.
    public nonisolated let clock: any Clock<Duration>
    /// The timestamp (seconds since 1970) of the server's start; server time is this plus the clock's elapsed time.
    public nonisolated let epoch: Double
    nonisolated let hub: EventHub
    nonisolated let controls = ServerControls()
    /// Where the data is kept: a ``ServerDatabase`` (SQLite) unless made with ``init(store:clock:epoch:latency:)``.
    let database: any ServerStore
    /// The executor of the server's isolation: the store's (see ``ServerStore/executor``).
    private nonisolated let storeExecutor: UnownedSerialExecutor
    private let elapsed: @Sendable () -> Duration
    /// Watches a server file for other connections' commits; nil in memory or when not watching.
    let watcher: ServerFileWatcher?
    /// The server file, whose watchers the server wakes after each commit; nil in memory.
    nonisolated let sharedFile: URL?
    /// Called before each new attempt of a write that found the file busy, with the attempt's
    /// number (2 for the first retry); for tests.
    var busyRetryObserver: (@Sendable (Int) -> Void)?
    /// Called in a write's transaction once its own events are addressed, before the commit; for
    /// tests (a stream that subscribes at that moment).
    var afterAddressing: (@Sendable () -> Void)?

    /// Opens a server with its database at `location`.
    ///
    /// - Parameters:
    ///   - location: `.inMemory` for tests, or a file that keeps the data between runs.
    ///   - clock: the clock for latency, timestamps and ``SimulatedActivity``; a ``ManualClock`` in tests.
    ///   - epoch: the timestamp of the server's start; nil for the wall-clock time now. Give one
    ///     for deterministic timestamps.
    ///   - latency: the delay of every request, in clock time.
    ///   - externalChanges: for a file, how the server learns of commits made by other
    ///     processes or other servers on the same file, to publish them: the same setting as a
    ///     `LiveStore`'s, in real time whatever `clock` is. `.default` wakes on each commit;
    ///     `.off` looks only when ``publishExternalChanges()`` is called.
    /// - Throws: `SQLiteError` when the database cannot be opened or migrated.
    public init(
        location: SQLiteConnection.Location = .inMemory, clock: any Clock<Duration> = ContinuousClock(),
        epoch: Double? = nil, latency: Duration = .zero, externalChanges: ExternalChangeDetection = .default
    ) throws {
        self.clock = clock
        self.epoch = epoch ?? Date().timeIntervalSince1970
        self.elapsed = Self.stopwatch(clock)
        let database = try ServerDatabase(location: location)
        self.database = database
        storeExecutor = database.executor
        // Changes committed before the server opened are history: clients read them with `changes(since:)`.
        let hub = EventHub(publishedThrough: try database.latestSequence())
        self.hub = hub
        if case .file(let url) = location {
            sharedFile = url
        } else {
            sharedFile = nil
        }
        if let sharedFile, externalChanges.watches {
            watcher = try ServerFileWatcher(file: sharedFile, detection: externalChanges) { hub.publishedSequence }
        } else {
            watcher = nil
        }
        controls.withState { $0.latency = latency }
        watcher?.start { [weak self] in
            guard let self else { return true }
            return (try? await self.publishExternalChanges()) != nil
        }
    }

    /// Opens a server on a store of its own kind, e.g. the server package's PostgreSQL store,
    /// which several server instances share.
    ///
    /// The server's isolation, and with it every call to the store, runs on the store's
    /// ``ServerStore/executor``. The server publishes other instances' changes when
    /// ``publishExternalChanges()`` is called: the store's owner calls it when it learns of
    /// them (the PostgreSQL store listens for its notifications).
    ///
    /// - Parameters:
    ///   - store: where the data is kept; the server becomes its only user.
    ///   - clock: the clock for latency and timestamps.
    ///   - epoch: the timestamp of the server's start; nil for the wall-clock time now.
    ///   - latency: the delay of every request, in clock time.
    /// - Throws: what the store throws when its latest sequence number cannot be read.
    public init(
        store: sending any ServerStore, clock: any Clock<Duration> = ContinuousClock(), epoch: Double? = nil,
        latency: Duration = .zero
    ) async throws {
        self.clock = clock
        self.epoch = epoch ?? Date().timeIntervalSince1970
        self.elapsed = Self.stopwatch(clock)
        storeExecutor = store.executor
        hub = EventHub()
        database = store
        sharedFile = nil
        watcher = nil
        controls.withState { $0.latency = latency }
        // Initialized: from here the initializer runs on the store's executor, where the store
        // may be used. Changes committed before the server opened are history.
        hub.publish([], audiences: [], through: try database.latestSequence())
    }

    /// The executor the server's isolation runs on: the store's.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { storeExecutor }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// The mutation rules, over this server's database and controls.
    var engine: MutationEngine { MutationEngine(database: database, controls: controls) }

    /// A client connection signed in as `userId`; it conforms to `SocialAPI`.
    public nonisolated func connection(userId: String) -> Connection {
        Connection(server: self, userId: userId)
    }

    /// The server's clock time now, in seconds since 1970: the epoch plus the clock's elapsed time.
    func clockTime() -> Double {
        let components = elapsed().components
        return epoch + Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The time for a write: the clock time, or a millisecond after the last timestamp any
    /// server handed out on this database if that is later. Call it in a write transaction.
    func timestamp() throws -> Double {
        try database.nextTimestamp(clockTime: clockTime())
    }

    // MARK: Connectivity

    /// Whether clients are connected: requests are served and events delivered.
    public nonisolated var isConnected: Bool { hub.isConnected }

    /// Drops every client's connection: requests throw `.offline`, events are missed.
    ///
    /// Subscribers receive `SocialEvent.disconnected`. Writes made meanwhile (as
    /// other users) still reach the change log.
    public nonisolated func disconnect() { hub.setConnected(false) }

    /// Restores the connection; subscribers receive `SocialEvent.connected`.
    public nonisolated func reconnect() { hub.setConnected(true) }

    /// How many event streams are open.
    public nonisolated var subscriberCount: Int { hub.subscriberCount }

    // MARK: Latency and failures

    /// The delay of every request, in clock time.
    public nonisolated var latency: Duration { controls.withState { $0.latency } }

    /// Sets the delay of every request, in clock time; zero for none.
    public nonisolated func setLatency(_ latency: Duration) {
        precondition(latency >= .zero, "latency cannot be negative")
        controls.withState { $0.latency = latency }
    }

    /// Makes the next `count` requests fail with `SocialAPIError.serverFailure(_:)`.
    public nonisolated func failNextRequests(_ count: Int, message: String = "simulated server failure") {
        controls.withState {
            $0.failuresLeft = count
            $0.failureMessage = message
        }
    }

    /// Makes every request of the given kinds fail with `SocialAPIError.serverFailure(_:)`,
    /// until ``resetFailures()``. An empty set stops failing by kind.
    public nonisolated func failRequests(_ kinds: Set<ServerRequestKind>, message: String = "simulated server failure") {
        controls.withState {
            $0.failingKinds = kinds
            $0.failingKindsMessage = message
        }
    }

    /// Makes the next `count` requests succeed on the server but lose their answer: the client
    /// gets `SocialAPIError.offline` although the change was made (a resend must not duplicate it).
    public nonisolated func dropNextResponses(_ count: Int) {
        controls.withState { $0.responsesToDrop = count }
    }

    /// Refuses messages (sent or edited) whose text contains `fragment`, ignoring case, with
    /// `SocialAPIError.rejected(_:)` carrying `reason`.
    public nonisolated func rejectMessages(containing fragment: String, reason: String) {
        controls.withState { $0.rejectedFragments.append((fragment, reason)) }
    }

    /// Stops every failure, dropped answer and rejection rule; latency stays.
    public nonisolated func resetFailures() {
        controls.withState { state in
            let latency = state.latency
            let count = state.requestCount
            state = ServerControls.State()
            state.latency = latency
            state.requestCount = count
        }
    }

    /// How many client requests reached the server (after latency), failed ones included.
    public nonisolated var requestCount: Int { controls.withState { $0.requestCount } }
}
