import BenchmarkSupport
import Foundation
import GRDB
import LiveRepository
import LiveSocial

/// When one watcher in process B first saw each of the writer's commits: the shared clock
/// (``SharedClock``) read in its observer call.
@MainActor
final class Arrivals {
    /// `seenAt[n - 1]`: when a delivery first showed message `n` (with every message before it).
    private(set) var seenAt: [UInt64] = []
    /// Observer calls after the first.
    private(set) var deliveries = 0
    /// Fired by the first observer call.
    let ready = FirstCallback<Void>()
    private var started = false

    /// An observer call that shows messages 1…`newest` (0: only the seed).
    func observed(upTo newest: Int, at time: UInt64) {
        if started { deliveries += 1 }
        started = true
        ready.fire(())
        while seenAt.count < newest { seenAt.append(time) }
    }
}

/// What process B runs to notice the writer's commits.
enum WatcherKind: String, CaseIterable {
    /// Nothing at all: the baseline of the idle measurement.
    case none
    /// This package's `LiveStore`s on the file, at the default settings (woken by each commit),
    /// with nothing observed.
    case store
    /// The same, polling every `--poll` ms (10 by default): the default before wake-ups.
    case storePolling = "store-polling"
    /// This package: a `LiveStore` on the file, at the default settings (woken by each commit),
    /// and a `LiveCollection` over the channel.
    case live
    /// The same, polling every `--poll` ms (10 by default): the default before wake-ups.
    case livePolling = "live-polling"
    /// GRDB's `ValueObservation` of the channel's newest 20 rows, through a `DatabasePool` on
    /// the file.
    case grdb
    /// A naive loop: a timer on the main queue re-runs the newest-20 query every 100 ms and
    /// compares the ids with the last result.
    case naive
    /// Not a watcher of the file: the machine's floor (``Floor``), the same wake-ups without
    /// SQLite.
    case floor

    /// Whether this is one of this package's stores at the default settings (wake-ups).
    var wakesUp: Bool { self == .store || self == .live }

    /// The row title; `poll` is the polling rows' interval, `stores` the number of stores.
    func title(poll: Int, stores: Int = 1) -> String {
        let count = stores == 1 ? "LiveStore" : "\(stores) LiveStores"
        return switch self {
        case .none: "nothing (baseline: the process only waits)"
        case .store: "\(count) (default: wake-ups), nothing observed"
        case .storePolling: "\(count) (polling every \(poll) ms, the old default), nothing observed"
        case .live: "LiveStore (default: wake-ups) + LiveCollection"
        case .livePolling: "LiveStore (polling every \(poll) ms, the old default) + LiveCollection"
        case .grdb: "GRDB ValueObservation (DatabasePool on the same file)"
        case .naive: "naive loop: requery every 100 ms and compare"
        case .floor: "floor: a stamp through a pipe to a thread, a queue, the main queue (no SQLite)"
        }
    }
}

/// One watcher of the shared file in process B; ``stop()`` ends it.
@MainActor
final class Watcher {
    let kind: WatcherKind
    let arrivals = Arrivals()
    private var stopping: [() async -> Void] = []

    /// Starts watching `url`; wait for ``Arrivals/ready`` before the writer starts. The
    /// polling kinds' stores check every `pollMilliseconds`; `.store` and `.storePolling` open
    /// `stores` stores on the file.
    init(_ kind: WatcherKind, url: URL, pollMilliseconds: Int, stores: Int = 1) throws {
        self.kind = kind
        let arrivals = self.arrivals
        let poll = kind.wakesUp ? nil : pollMilliseconds
        switch kind {
        case .floor:
            preconditionFailure("the floor watches a pipe, not the file: see Floor")
        case .none:
            arrivals.observed(upTo: 0, at: SharedClock.now())
        case .store, .storePolling:
            let opened = try (0..<max(1, stores)).map { _ in try Fixture.open(url, pollMilliseconds: poll) }
            arrivals.observed(upTo: 0, at: SharedClock.now())
            stopping.append { for store in opened { await store.close() } }
        case .live, .livePolling:
            let store = try Fixture.open(url, pollMilliseconds: poll)
            let collection = Fixture.collection(store)
            let token = collection.observe { collection, _, error in
                let now = SharedClock.now()
                if let error { fatalError("LiveCollection: \(error)") }
                // The seed is row 0; message n is row n.
                arrivals.observed(upTo: collection.count - 1, at: now)
            }
            stopping.append {
                token.invalidate()
                await store.close()
            }
        case .grdb:
            var configuration = Configuration()
            // As the store's connections: WAL (GRDB's pool), `synchronous = NORMAL`, and a 5 s
            // busy timeout (other processes open the file at the same moment).
            configuration.busyMode = .timeout(5)
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            let observation = ValueObservation.tracking { db in
                try String.fetchAll(db, sql: Fixture.newestIdsSQL)
            }
            let cancellable = observation.start(
                in: pool, scheduling: .async(onQueue: .main),
                onError: { error in fatalError("GRDB: \(error)") },
                onChange: { ids in
                    let now = SharedClock.now()
                    MainActor.assumeIsolated { arrivals.observed(upTo: ids.first.flatMap(Fixture.number) ?? 0, at: now) }
                })
            stopping.append {
                cancellable.cancel()
                try? pool.close()
            }
        case .naive:
            let connection = try SQLiteConnection(location: .file(url), readOnly: true)
            var last: [String]?
            let poll = {
                let ids: [String]
                do { ids = try connection.query(Fixture.newestIdsSQL) { $0.string(0) } }
                catch { fatalError("naive loop: \(error)") }
                guard ids != last else { return }
                last = ids
                arrivals.observed(upTo: ids.first.flatMap(Fixture.number) ?? 0, at: SharedClock.now())
            }
            poll()
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { MainActor.assumeIsolated { poll() } }
            timer.resume()
            stopping.append {
                timer.cancel()
                connection.close()
            }
        }
    }

    func stop() async {
        for step in stopping { await step() }
        stopping = []
    }
}
