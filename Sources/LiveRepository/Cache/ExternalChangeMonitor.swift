import Dispatch
import Foundation

/// The one watcher of shared files in a process: every ``LiveStore`` and every server on a file
/// subscribes here, and all of them share one reader of the file's wake-up channel
/// (``WakeChannel``) and one timer, whatever their number. See ``ExternalChangeDetection``.
///
/// A subscriber gives a `wake` closure, called when the file may have changed: a wake-up from
/// another process (on the channel's reading thread), a commit of another subscriber of this
/// process (on the committing subscriber's thread), or a look that found the file's data version
/// changed. It must only schedule its check, never run it there, nor block: the wake-up reaches
/// it with no hand-off to another thread before its own. A subscriber may also give a `lookHere`
/// closure, which the channel's reading thread calls instead of `wake` while that subscriber is
/// the only one of the file it wakes: it may run the check on that thread, waiting for the
/// subscriber's own queue, and save the check the hand-off to the queue's thread (about 50 µs
/// at the median on Linux, 140 µs at the 99th percentile, with the queue's thread asleep, as it
/// is between another process's commits). Waiting there holds back only its own next wake-ups.
///
/// A look reads `PRAGMA data_version` once per file, on a read-only connection of the monitor's
/// own that never waits for a lock (``DataVersionCheck``), and wakes the file's subscribers only
/// when it changed. The looks for writers that do not announce themselves (the slow check) are
/// made by the channel's reading thread, when the channel stayed quiet for the shortest interval
/// the file's subscribers ask for: a process that only waits has no timer. The timer serves the
/// subscribers that poll (set to ``ExternalChangeDetection/polling(every:)``, or whose file's
/// channel could not be made), at the shortest interval any of them asks for, on `queue`.
///
/// `@unchecked Sendable`: `lock` guards `files`, `timer`, `timerInterval`, `nextID` and `announcing`;
/// `checkers` is used only on `queue`; a ``ChannelLook`` only on its channel's reading thread.
package final class ExternalChangeMonitor: @unchecked Sendable {
    /// The process's monitor.
    package static let shared = ExternalChangeMonitor()

    /// A subscriber's ticket; give it back with ``unsubscribe(_:)``.
    package struct Subscription: Sendable, Hashable {
        let id: Int
        /// The file's standardized path.
        let path: String
    }

    private struct Subscriber {
        let detection: ExternalChangeDetection
        let wake: @Sendable () -> Void
        let lookHere: (@Sendable () -> Void)?
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

    /// The slow check of a file with a channel, made on the channel's reading thread.
    ///
    /// `@unchecked Sendable`: `check` is read before the thread starts and then used only on it.
    private final class ChannelLook: @unchecked Sendable {
        var check: DataVersionCheck
        init(_ check: DataVersionCheck) { self.check = check }
    }

    let queue = DispatchQueue(label: "LiveRepository.ExternalChangeMonitor", qos: .userInitiated)
    private let onQueue = DispatchSpecificKey<Bool>()
    private let lock = NSLock()
    private var files: [String: Watched] = [:]
    private var timer: (any DispatchSourceTimer)?
    private var timerInterval: Duration?
    private var nextID = 0
    private var announcing = true
    private var checkers: [String: DataVersionCheck] = [:]

    init() {
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Starts watching `file` for a subscriber set to `detection`, or returns nil when that
    /// setting watches nothing (``ExternalChangeDetection/off``).
    package func subscribe(
        file: URL, detection: ExternalChangeDetection, lookHere: (@Sendable () -> Void)? = nil,
        wake: @escaping @Sendable () -> Void
    ) -> Subscription? {
        guard detection.watches else { return nil }
        let path = file.standardizedFileURL.path
        // The slow check's baseline is read before the channel's thread starts, and before this
        // returns, so that it sees every later commit; outside `lock`, as it may wait for a lock
        // of the file's. Read again when the file turns out to need a channel after all.
        var look: ChannelLook?
        while true {
            let subscribed = lock.withLock { () -> (Subscription, timed: Bool)? in
                var watched = files[path] ?? Watched(url: file)
                if detection.wakesUp, watched.channel == nil {
                    guard let look else { return nil }
                    watched.channel = WakeChannel(
                        file: file, wake: { [weak self] in self?.channelWoke(path) },
                        look: { [weak self] in
                            if look.check.changed() { self?.wakeSubscribers(of: path, wakingUp: true, onReadingThread: true) }
                        },
                        finished: { look.check.close() })
                }
                nextID += 1
                watched.subscribers[nextID] = Subscriber(detection: detection, wake: wake, lookHere: lookHere)
                files[path] = watched
                reschedule()
                return (Subscription(id: nextID, path: path), Self.isTimed(detection, channel: watched.channel))
            }
            guard let (subscription, timed) = subscribed else {
                look = ChannelLook(DataVersionCheck(path: path, patience: Self.baselinePatienceMilliseconds))
                continue
            }
            // The timer's baseline, likewise.
            if timed { queue.sync { openChecker(path) } }
            return subscription
        }
    }

    /// On `queue`: reads the first data version of a file the timer newly serves, the baseline of
    /// its ticks. It wakes no one: each subscriber read its own baseline when it opened, and
    /// waking a hundred stores to find nothing is what an idle process must not pay. It waits a
    /// little for a lock (other processes opening the file at the same moment), so that the
    /// baseline is read here rather than at a tick, which would then have to wake every store.
    private func openChecker(_ path: String) {
        guard checkers[path] == nil, lock.withLock({ files[path] != nil }) else { return }
        checkers[path] = DataVersionCheck(path: path, patience: Self.baselinePatienceMilliseconds)
    }

    /// How long reading a baseline waits for a lock, ms.
    static let baselinePatienceMilliseconds: Int32 = 250

    /// Whether a subscriber set to `detection` is served by the timer: it polls, or its file's
    /// channel could not be made.
    private static func isTimed(_ detection: ExternalChangeDetection, channel: WakeChannel?) -> Bool {
        detection.wakesUp ? channel == nil : detection.interval != nil
    }

    /// Whether the timer looks at a watched file: one of its subscribers is served by it.
    private static func timerLooks(at watched: Watched) -> Bool {
        watched.subscribers.values.contains { isTimed($0.detection, channel: watched.channel) }
    }

    /// Stops calling the subscriber. The last subscriber of a file closes its channel reader and,
    /// `waiting`, the monitor's connections to the file before this returns (unless called on the
    /// thread that uses one), so that closing the subscriber's own connection can still
    /// checkpoint the file; without `waiting` (from a `deinit`, which may run on any thread) they
    /// are closed soon.
    package func unsubscribe(_ subscription: Subscription, waiting: Bool = true) {
        let (wasLast, channel) = lock.withLock { () -> (Bool, WakeChannel?) in
            guard var watched = files[subscription.path] else { return (false, nil) }
            watched.subscribers[subscription.id] = nil
            defer { reschedule() }
            guard watched.subscribers.isEmpty else {
                files[subscription.path] = watched
                return (false, nil)
            }
            files[subscription.path] = nil
            return (true, watched.channel)
        }
        // Outside `lock`: its reading thread may be waiting for it.
        channel?.close(waiting: waiting)
        guard wasLast else { return }
        let closeChecker: @Sendable () -> Void = { [self] in
            // A new subscriber may have come meanwhile: it then keeps the connection.
            guard lock.withLock({ files[subscription.path] == nil }) else { return }
            checkers.removeValue(forKey: subscription.path)?.close()
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
        // The subscription's path is the file's, standardized once (Foundation's URL
        // standardization was a third of a wake-up's cost on Linux, measured).
        let path = subscription?.path ?? file.standardizedFileURL.path
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
        WakeChannel.announce(folder: WakeChannel.folder(ofPath: path), skipping: ownPipe)
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
    /// Whether the timer looks at `file` (a subscriber polls it), rather than its channel alone.
    package func timerWatches(_ file: URL) -> Bool {
        lock.withLock {
            files[file.standardizedFileURL.path].map(Self.timerLooks(at:)) ?? false
        }
    }
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
        wakeSubscribers(of: path, wakingUp: true, onReadingThread: true)
    }

    /// Calls the wake closures of `path`'s subscribers (only of those set to wake up, with
    /// `wakingUp`: a polling subscriber keeps to its timer), outside `lock`; `onReadingThread`,
    /// the `lookHere` closure instead of a lone subscriber's `wake`, when it gave one.
    private func wakeSubscribers(of path: String, wakingUp: Bool = false, onReadingThread: Bool = false) {
        let woken = lock.withLock {
            files[path]?.subscribers.values.filter { !wakingUp || $0.detection.wakesUp } ?? []
        }
        if onReadingThread, woken.count == 1, let lookHere = woken[0].lookHere {
            lookHere()
            return
        }
        for subscriber in woken { subscriber.wake() }
    }

    /// Under `lock`: sets each channel's slow check to the shortest interval its file's waking
    /// subscribers ask for, and runs the timer at the shortest interval a polling subscriber
    /// needs, or stops it.
    private func reschedule() {
        var shortest: Duration?
        for watched in files.values {
            var slowest: Duration?
            for subscriber in watched.subscribers.values {
                let detection = subscriber.detection
                if detection.wakesUp, watched.channel != nil {
                    if let interval = detection.interval, interval < slowest ?? .seconds(Int64.max) { slowest = interval }
                    continue
                }
                let needed = detection.wakesUp ? detection.pollingWithoutChannel : detection.interval
                if let needed, needed < shortest ?? .seconds(Int64.max) { shortest = needed }
            }
            watched.channel?.lookInterval = slowest
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

    /// On `queue`: wakes the subscribers of each file the timer serves whose data version changed
    /// since the last tick (see ``DataVersionCheck``: a file replaced at its path is followed).
    private func tick() {
        let timed = lock.withLock { Set(files.filter { Self.timerLooks(at: $0.value) }.keys) }
        for path in checkers.keys where !timed.contains(path) {
            checkers.removeValue(forKey: path)?.close()
        }
        for path in timed {
            var check = checkers[path] ?? DataVersionCheck(path: path, patience: 0)
            let changed = check.changed()
            checkers[path] = check
            if changed { wakeSubscribers(of: path) }
        }
    }
}
