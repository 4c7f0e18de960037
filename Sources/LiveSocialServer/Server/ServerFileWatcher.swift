import Dispatch
import Foundation
import LiveRepository

/// Notices commits that other connections (other servers, other processes) make to a server
/// file, and asks the server to publish them.
///
/// Every `interval` of real time, a timer on a private queue reads `PRAGMA data_version` on a
/// connection of its own: SQLite changes that number when another connection has committed to
/// the file since the last read. Only then does it read the change log's latest sequence, and
/// only when that is past what the server has published does it call `publish` (at most one
/// call at a time; a call that fails is made again on the next tick). An idle file costs one
/// wake-up and one `data_version` read per tick, 25 to 30 µs (0.3% of a core at the default
/// 10 ms); see <doc:SharingAServerFile> for the numbers.
///
/// `@unchecked Sendable`: `connection`, `lastVersion`, `inFlight` and `retry` are used on
/// `queue` only (the timer's handler and the end of a `publish` call run there); `timer` is
/// set up in `start` and cancelled in `deinit`, both before or after every use.
final class ServerFileWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "LiveSocialServer.ServerFileWatcher")
    private let connection: SQLiteConnection
    private let interval: Duration
    private let publishedSequence: @Sendable () -> Int64
    private var timer: (any DispatchSourceTimer)?
    private var lastVersion: Int64?
    private var inFlight = false
    private var retry = false

    /// A watcher of the server file at `file`; nothing happens until `start(publish:)`.
    ///
    /// - Parameters:
    ///   - publishedSequence: the last sequence the server has published.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    init(file: URL, interval: Duration, publishedSequence: @escaping @Sendable () -> Int64) throws {
        connection = try SQLiteConnection(location: .file(file))
        self.interval = interval
        self.publishedSequence = publishedSequence
    }

    deinit { timer?.cancel() }

    /// Starts polling. `publish` publishes the file's new changes and says whether it could.
    func start(publish: @escaping @Sendable () async -> Bool) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        // A tenth of the interval of leeway lets the system group wake-ups without adding latency that matters.
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(max(nanoseconds / 10, 1)))
        timer.setEventHandler { [weak self] in self?.tick(publish: publish) }
        self.timer = timer
        timer.resume()
    }

    private func tick(publish: @escaping @Sendable () async -> Bool) {
        guard !inFlight else { return }
        do {
            let version = try connection.queryFirst("PRAGMA data_version") { $0.int64(0) }
            guard version != lastVersion || retry else { return }
            lastVersion = version
            // The server's own commits change the number too; they are published already.
            let latest = try connection.queryFirst("SELECT MAX(sequence) FROM server_changelog") { $0.int64(0) } ?? 0
            guard latest > publishedSequence() || retry else { return }
        } catch {
            retry = true
            return
        }
        retry = false
        inFlight = true
        Task { [weak self] in
            let published = await publish()
            self?.finish(published: published)
        }
    }

    /// Called when a `publish` call ends: the next tick may call it again.
    private func finish(published: Bool) {
        queue.async { [self] in
            inFlight = false
            if !published { retry = true }
        }
    }
}
