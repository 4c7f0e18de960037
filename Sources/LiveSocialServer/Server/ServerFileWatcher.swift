import Dispatch
import Foundation
import LiveRepository

/// Notices commits that other connections (other servers, other processes) make to a server
/// file, and asks the server to publish them.
///
/// It subscribes to the process's watcher of shared files (`ExternalChangeMonitor`, shared with
/// every `LiveStore` and server of the process), which wakes it when another process announces
/// a commit to the file, when another server or store of this process commits, or when its slow
/// check (or, polling, its timer) finds the file changed (see `ExternalChangeDetection` and <doc:SharingAServerFile>).
/// A wake-up queues one look on a private queue: it reads `PRAGMA data_version` on a connection
/// of its own (SQLite changes that number when another connection has committed to the file
/// since the last read), then the change log's latest sequence, and only when that is past what
/// the server has published does it call `publish` (at most one call at a time; a call that
/// fails, or a wake-up during one, makes it look again once the call is over).
///
/// `@unchecked Sendable`: `connection`, `lastVersion`, `inFlight`, `retry` and `lookAgain` are
/// used on `queue` only (the looks and the end of a `publish` call run there); `subscription`
/// is set in `start` and given back in `deinit`, before and after every use.
final class ServerFileWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "LiveSocialServer.ServerFileWatcher", qos: .userInitiated)
    private let file: URL
    private let connection: SQLiteConnection
    private let detection: ExternalChangeDetection
    private let publishedSequence: @Sendable () -> Int64
    private(set) var subscription: ExternalChangeMonitor.Subscription?
    private var lastVersion: Int64?
    private var inFlight = false
    private var retry = false
    private var lookAgain = false

    /// A watcher of the server file at `file`; nothing happens until `start(publish:)`.
    ///
    /// - Parameters:
    ///   - publishedSequence: the last sequence the server has published.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    init(file: URL, detection: ExternalChangeDetection, publishedSequence: @escaping @Sendable () -> Int64) throws {
        self.file = file
        connection = try SQLiteConnection(location: .file(file))
        self.detection = detection
        self.publishedSequence = publishedSequence
    }

    deinit { subscription.map { ExternalChangeMonitor.shared.unsubscribe($0, waiting: false) } }

    /// Starts watching. `publish` publishes the file's new changes and says whether it could.
    func start(publish: @escaping @Sendable () async -> Bool) {
        subscription = ExternalChangeMonitor.shared.subscribe(file: file, detection: detection) { [weak self] in
            guard let self else { return }
            queue.async { self.look(publish: publish) }
        }
    }

    private func look(publish: @escaping @Sendable () async -> Bool) {
        guard !inFlight else {
            lookAgain = true
            return
        }
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
            self?.finish(published: published, publish: publish)
        }
    }

    /// Called when a `publish` call ends: looks again if a wake-up came meanwhile, and makes a
    /// failed call again after the watching interval (at most 100 ms), as no wake-up may come.
    private func finish(published: Bool, publish: @escaping @Sendable () async -> Bool) {
        queue.async { [self] in
            inFlight = false
            if !published {
                retry = true
                let delay = min(detection.interval ?? .milliseconds(100), .milliseconds(100))
                queue.asyncAfter(deadline: .now() + .microseconds(Int(delay / .microseconds(1)))) { [weak self] in
                    self?.look(publish: publish)
                }
            }
            guard lookAgain else { return }
            lookAgain = false
            look(publish: publish)
        }
    }
}
