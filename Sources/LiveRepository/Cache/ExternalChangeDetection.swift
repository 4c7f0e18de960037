/// How a ``LiveStore`` (or a server on a shared file) learns of commits that other connections
/// and other processes made to its file.
///
/// A store always tells its observers about its own writes. Commits made to the same file by
/// another ``LiveStore`` (in this process or another one, such as an app extension sharing an
/// App Group file) are found by a check on the store's queue: it asks SQLite whether the file
/// changed since the last check (`PRAGMA data_version`, a read of shared memory that costs a few
/// microseconds) and, when it did, reads the change log the other stores wrote and tells the
/// observers of the rows they touched. What starts a check is this setting:
///
/// - ``default`` (``wakeUps(checkingEvery:pollingWithoutChannel:)``): every store and server
///   that commits to the file wakes the processes watching it, through named pipes in a folder
///   beside the file (`<file>-wake`). Nothing runs while nothing is written. A slow check (every
///   second) catches writers that do not announce their commits (another SQLite library, the
///   `sqlite3` tool). Where the pipes cannot be made (a folder that cannot be written, a file
///   system without named pipes), the store polls instead, every 10 ms.
/// - ``polling(every:)``: checks on a timer only, as before wake-ups existed.
/// - ``off``: checks only when asked, or along with the store's own reads and writes.
///
/// Whatever the setting, a store's commits wake the others. All the stores and servers of one
/// process share one reader of the pipes per file, which also makes the slow check at the shortest
/// interval any of them asks for, once the pipe stayed quiet that long; those that poll share one
/// timer. See <doc:SharingACacheFile>.
///
/// ```swift
/// let store = try LiveStore(location: .file(groupURL), migrations: migrations)   // .default
/// let quiet = try LiveStore(location: .file(url), migrations: migrations, externalChanges: .off)
/// await quiet.checkForExternalChanges()   // looks once, now
/// ```
///
/// A store in memory has no file to share and ignores this setting.
public struct ExternalChangeDetection: Sendable, Hashable {
    /// Whether other processes' commits wake the store through the wake-up channel.
    public let wakesUp: Bool
    /// The time between two checks on a timer, or nil for none. With ``wakesUp``, the slow check
    /// for writers that do not announce themselves; without, the polling interval.
    public let interval: Duration?
    /// With ``wakesUp``, the polling interval used when the wake-up channel cannot be made; nil
    /// without wake-ups.
    public let pollingWithoutChannel: Duration?

    /// Wake-ups, a check every second for writers that do not announce themselves, and polling
    /// every 10 ms where the channel cannot be made. Another process's commit reaches observers
    /// without waiting for an interval, and a watching process pays one check a second while
    /// idle (measured on Linux; see <doc:SharingACacheFile>).
    public static let `default` = wakeUps()

    /// Never checks on a timer nor on a wake-up: commits from elsewhere reach observers after
    /// ``LiveStore/checkForExternalChanges()``, or along with the store's next write or the next
    /// read of one of its live objects or collections (which always take in what others
    /// committed before them, so that what they show stays consistent).
    public static let off = ExternalChangeDetection(wakesUp: false, interval: nil, pollingWithoutChannel: nil)

    /// Checks every `interval` (at least one millisecond), and on no wake-up.
    public static func polling(every interval: Duration) -> Self {
        ExternalChangeDetection(wakesUp: false, interval: max(interval, .milliseconds(1)), pollingWithoutChannel: nil)
    }

    /// Checks when another process's commit wakes the store, and every `interval` (nil: never)
    /// for writers that do not announce themselves; polls every `pollingWithoutChannel` (at
    /// least one millisecond) where the wake-up channel cannot be made.
    public static func wakeUps(
        checkingEvery interval: Duration? = .seconds(1), pollingWithoutChannel: Duration = .milliseconds(10)
    ) -> Self {
        ExternalChangeDetection(
            wakesUp: true, interval: interval.map { max($0, .milliseconds(1)) },
            pollingWithoutChannel: max(pollingWithoutChannel, .milliseconds(1)))
    }

    /// Whether a store with this setting watches its file at all (on a timer or on wake-ups).
    package var watches: Bool { wakesUp || interval != nil }

    private init(wakesUp: Bool, interval: Duration?, pollingWithoutChannel: Duration?) {
        self.wakesUp = wakesUp
        self.interval = interval
        self.pollingWithoutChannel = pollingWithoutChannel
    }
}
