import Foundation

/// A flag set once from any thread: the GRDB writes still queued when a run's budget runs out
/// skip their work, so the run ends without waiting for them.
///
/// An `NSLock`, not Synchronization's `Atomic` or `Mutex`: those need macOS 15 / iOS 18, and
/// this package supports macOS 14 / iOS 17. The flag is read once per queued write, each of which
/// costs far more than the lock.
///
/// `@unchecked Sendable`: `stopped` is read and written only while holding `lock`.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    func stop() { lock.withLock { stopped = true } }

    var isStopped: Bool { lock.withLock { stopped } }
}
