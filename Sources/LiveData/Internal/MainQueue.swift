import Dispatch

/// Tells, without trapping, whether the caller runs on the main queue, and so on the main actor.
///
/// `Thread.isMainThread` cannot tell: on Linux an `async` main gives the main thread up to
/// `dispatchMain()`, and the main queue (the main actor's executor) then runs on another thread.
/// A value set on the main queue as a queue-specific is seen by code running on it, and by the
/// main thread (libdispatch binds the main queue to it).
enum MainQueue {
    /// The main queue's marker. Set once, from whichever thread first asks; `setSpecific` may be
    /// called from any thread.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
