import Dispatch
import Foundation

/// The one watcher of shared files in a process: every ``LiveStore`` and every server on a file
/// subscribes here, and all of them share one reader of the file's wake-up channel
/// (``WakeChannel``) and one timer, whatever their number. See ``ExternalChangeDetection``.
///
/// A subscriber gives a `wake` closure, called when the file may have changed: a wake-up from
/// another process (on the channel's reading thread), a commit of another subscriber of this
/// process (on the committing subscriber's thread), or a tick of the timer that found the file's
/// data version changed (on the monitor's queue). It must only schedule its check, never run it
/// there, nor block: the wake-up reaches it with no hand-off to another thread before its own. The timer runs at the shortest interval any subscriber asks for:
/// with a channel, the slow check for writers that do not announce themselves; without one (it
/// could not be made), the polling interval. A tick reads `PRAGMA data_version` once per file, on
/// a read-only connection of the monitor's own that never waits for a lock
/// (``DataVersionReader``), and wakes the file's subscribers only when it changed.
///
/// `@unchecked Sendable`: `lock` guards `files`, `timer`, `timerInterval`, `nextID` and `announcing`;
/// `checkers` is used only on `queue`.
package final class ExternalChangeMonitor: @unchecked Sendable {
    /// The process's monitor.
    package static let shared = ExternalChangeMonitor()

    /// A subscriber's ticket; give it back with ``unsubscribe(_:)``.
    package struct Subscription: Sendable, Hashable {
        let id: Int
        let path: String
    }

    private struct Subscriber {
        let detection: ExternalChangeDetection
        let wake: @Sendable () -> Void
    }

    /// One watched file: its channel reader (nil when no subscriber wants wake-ups, or when it
    /// could not be made) and its subscribers.
    private struct Watched {
        let url: URL
        var channel: WakeChannel?
        var subscribers: [Int: Subscriber] = [:]
        /// Batches of wake-ups read from the channel; for tests.
        var channelWakes = 0
    }

    /// What reads a file's data version for the timer (nil: to be opened at the next tick), and
    /// the version last read.
    private struct Checker {
        var reader: DataVersionReader?
        var version: Int64?
    }

    let queue = DispatchQueue(label: "LiveRepository.ExternalChangeMonitor", qos: .userInitiated)
    private let onQueue = DispatchSpecificKey<Bool>()
    private let lock = NSLock()
    private var files: [String: Watched] = [:]
    private var timer: (any DispatchSourceTimer)?
    private var timerInterval: Duration?
    private var nextID = 0
    private var announcing = true
    private var checkers: [String: Checker] = [:]

    init() {
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Starts watching `file` for a subscriber set to `detection`, or returns nil when that
    /// setting watches nothing (``ExternalChangeDetection/off``).
    package func subscribe(
        file: URL, detection: ExternalChangeDetection, wake: @escaping @Sendable () -> Void
    ) -> Subscription? {
        guard detection.watches else { return nil }
        let path = file.standardizedFileURL.path
        let (subscription, isFirst) = lock.withLock {
            var watched = files[path] ?? Watched(url: file)
            if detection.wakesUp, watched.channel == nil {
                watched.channel = WakeChannel(file: file) { [weak self] in self?.channelWoke(path) }
            }
            nextID += 1
            watched.subscribers[nextID] = Subscriber(detection: detection, wake: wake)
            files[path] = watched
            rescheduleTimer()
            return (Subscription(id: nextID, path: path), watched.subscribers.count == 1)
        }
        // The timer's baseline is read before this returns, so that it sees every later commit.
        if isFirst { queue.sync { openChecker(path) } }
        return subscription
    }

    /// On `queue`: reads the first data version of a newly watched file, the baseline of the
    /// timer's looks. It wakes no one: each subscriber read its own baseline when it opened, and
    /// waking a hundred stores to find nothing is what an idle process must not pay. It waits a
    /// little for a lock (other processes opening the file at the same moment), so that the
    /// baseline is read here rather than at a tick, which would then have to wake every store.
    private func openChecker(_ path: String) {
        guard checkers[path]?.reader == nil, lock.withLock({ files[path] != nil }) else { return }
        guard let reader = DataVersionReader(path: path) else { return }
        if case .version(let version) = reader.read(patience: Self.baselinePatienceMilliseconds) {
            checkers[path] = Checker(reader: reader, version: version)
        } else {
            checkers[path] = Checker(reader: reader, version: nil)
        }
    }

    /// How long reading a new file's baseline waits for a lock, ms.
    static let baselinePatienceMilliseconds: Int32 = 250

    /// Stops calling the subscriber. The last subscriber of a file closes its channel reader and,
    /// `waiting`, the monitor's connection to it before this returns (unless called on the
    /// monitor's queue), so that closing the subscriber's own connection can still checkpoint the
    /// file; without `waiting` (from a `deinit`, which may run on any thread) it is closed soon.
    package func unsubscribe(_ subscription: Subscription, waiting: Bool = true) {
        let wasLast = lock.withLock { () -> Bool in
            guard var watched = files[subscription.path] else { return false }
            watched.subscribers[subscription.id] = nil
            defer { rescheduleTimer() }
            guard watched.subscribers.isEmpty else {
                files[subscription.path] = watched
                return false
            }
            watched.channel?.close()
            files[subscription.path] = nil
            return true
        }
        guard wasLast else { return }
        let closeChecker: @Sendable () -> Void = { [self] in
            // A new subscriber may have come meanwhile: it then keeps the connection.
            guard lock.withLock({ files[subscription.path] == nil }) else { return }
            checkers.removeValue(forKey: subscription.path)?.reader?.close()
        }
        if DispatchQueue.getSpecific(key: onQueue) == true {
            closeChecker()
        } else if waiting {
            queue.sync(execute: closeChecker)
        } else {
            queue.async(execute: closeChecker)
        }
    }

    /// After a commit to `file` by a store or server of this process: wakes the file's other
    /// subscribers here and every other process watching it. Never blocks on another process.
    package func announce(file: URL, from subscription: Subscription?) {
        let path = file.standardizedFileURL.path
        let found = lock.withLock { () -> (ownPipe: String?, local: [@Sendable () -> Void])? in
            guard announcing else { return nil }
            guard let watched = files[path] else { return (nil, []) }
            let others = watched.subscribers.filter { $0.key != subscription?.id && $0.value.detection.wakesUp }
            return (watched.channel?.path, others.map(\.value.wake))
        }
        guard let (ownPipe, local) = found else { return }
        // Each wake only schedules its subscriber's check: called here, with no hop to the
        // monitor's queue first.
        for wake in local { wake() }
        WakeChannel.announce(folder: WakeChannel.folder(of: URL(fileURLWithPath: path)), skipping: ownPipe)
    }

    // MARK: For tests and benchmarks

    /// Whether commits wake anyone (true). A test's helper process sets it to false to play a
    /// writer killed between its commit and its wake-up.
    package var announcesCommits: Bool {
        get { lock.withLock { announcing } }
        set { lock.withLock { announcing = newValue } }
    }

    /// The channel readers open in this process (one per watched file at most).
    package var readerCount: Int { lock.withLock { files.values.filter { $0.channel != nil }.count } }
    /// Whether this process reads the wake-up channel of `file`.
    package func readsChannel(of file: URL) -> Bool {
        lock.withLock { files[file.standardizedFileURL.path]?.channel != nil }
    }
    /// The timers running in this process: 0 or 1.
    package var timerCount: Int { lock.withLock { timer == nil ? 0 : 1 } }
    /// The subscribers of `file` in this process.
    package func subscriberCount(of file: URL) -> Int {
        lock.withLock { files[file.standardizedFileURL.path]?.subscribers.count ?? 0 }
    }

    /// The batches of wake-ups this process read from `file`'s channel while watching it.
    package func channelWakeCount(of file: URL) -> Int {
        lock.withLock { files[file.standardizedFileURL.path]?.channelWakes ?? 0 }
    }

    // MARK: Private

    /// On the channel's reading thread: after wake-ups were read from `path`'s channel.
    private func channelWoke(_ path: String) {
        lock.withLock { files[path]?.channelWakes += 1 }
        wakeSubscribers(of: path, wakingUp: true)
    }

    /// Calls the wake closures of `path`'s subscribers (only of those set to wake up, with
    /// `wakingUp`: a polling subscriber keeps to its timer), outside `lock`.
    private func wakeSubscribers(of path: String, wakingUp: Bool = false) {
        let wakes = lock.withLock {
            files[path]?.subscribers.values.filter { !wakingUp || $0.detection.wakesUp }.map(\.wake) ?? []
        }
        for wake in wakes { wake() }
    }

    /// Under `lock`: runs the timer at the shortest interval a subscriber needs, or stops it.
    private func rescheduleTimer() {
        var shortest: Duration?
        for watched in files.values {
            for subscriber in watched.subscribers.values {
                let detection = subscriber.detection
                let needed = detection.wakesUp && watched.channel == nil ? detection.pollingWithoutChannel : detection.interval
                if let needed, needed < shortest ?? .seconds(Int64.max) { shortest = needed }
            }
        }
        guard shortest != timerInterval || (shortest != nil) != (timer != nil) else { return }
        timer?.cancel()
        timer = nil
        timerInterval = shortest
        guard let shortest else { return }
        let (seconds, attoseconds) = shortest.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Some leeway lets the system group the wake-ups with others (on Apple platforms).
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 4))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    /// On `queue`: wakes the subscribers of each file whose data version changed since the last
    /// tick. A file locked for a moment (another connection's checkpoint) is read again at the
    /// next tick, and wakes no one meanwhile. A file that cannot be read (gone, damaged) is opened
    /// again at the next tick; so is a file replaced at its path (a damaged cache moved aside and
    /// made anew by recovery), which the monitor then follows. A file whose baseline is not known
    /// (opened anew) wakes its subscribers once, in case something was committed before it.
    private func tick() {
        let watched = lock.withLock { Set(files.keys) }
        for path in checkers.keys where !watched.contains(path) {
            checkers.removeValue(forKey: path)?.reader?.close()
        }
        for path in watched {
            var checker = checkers[path] ?? Checker(reader: nil, version: nil)
            if let reader = checker.reader, !reader.isStillAtPath {
                reader.close()
                checker = Checker(reader: nil, version: nil)
            }
            if checker.reader == nil { checker.reader = DataVersionReader(path: path) }
            guard let reader = checker.reader else {
                checkers[path] = checker
                continue
            }
            switch reader.read() {
            case .version(let version):
                let changed = version != checker.version
                checker.version = version
                checkers[path] = checker
                if changed { wakeSubscribers(of: path) }
            case .busy:
                checkers[path] = checker
            case .failed:
                reader.close()
                checkers[path] = Checker(reader: nil, version: nil)
            }
        }
    }
}
