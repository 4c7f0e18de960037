/// How often a ``LiveStore`` looks for commits that other connections and other processes made
/// to its file.
///
/// A store always tells its observers about its own writes. Commits made to the same file by
/// another ``LiveStore`` (in this process or another one, such as an app extension sharing an
/// App Group file) are found by a check on the store's queue: it asks SQLite whether the file
/// changed since the last check (`PRAGMA data_version`, a read of shared memory that costs a few
/// microseconds) and, when it did, reads the change log the other stores wrote and tells the
/// observers of the rows they touched. See <doc:SharingACacheFile>.
///
/// ```swift
/// let store = try LiveStore(location: .file(groupURL), migrations: migrations)   // .default
/// let quiet = try LiveStore(location: .file(url), migrations: migrations, externalChanges: .off)
/// await quiet.checkForExternalChanges()   // looks once, now
/// ```
///
/// A store in memory has no file to share and ignores this setting.
public struct ExternalChangeDetection: Sendable, Hashable {
    /// The time between two checks, or nil when the store checks only when asked
    /// (``LiveStore/checkForExternalChanges()``).
    public let interval: Duration?

    /// Checks every 10 milliseconds: another process's commit reaches observers in 5 ms at the
    /// median and 10 ms at the 99th percentile, for about 0.4% of one CPU core while idle
    /// (measured on Linux; see <doc:SharingACacheFile>).
    public static let `default` = ExternalChangeDetection(interval: .milliseconds(10))

    /// Never checks on a timer: commits from elsewhere reach observers after
    /// ``LiveStore/checkForExternalChanges()``, or along with the store's next write or the next
    /// read of one of its live objects or collections (which always take in what others
    /// committed before them, so that what they show stays consistent).
    public static let off = ExternalChangeDetection(interval: nil)

    /// Checks every `interval` (at least one millisecond).
    public static func polling(every interval: Duration) -> Self {
        ExternalChangeDetection(interval: max(interval, .milliseconds(1)))
    }

    private init(interval: Duration?) {
        self.interval = interval
    }
}
