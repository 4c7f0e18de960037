import Synchronization

/// A flag set once from any thread: the GRDB writes still queued when a run's budget runs out
/// skip their work, so the run ends without waiting for them.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    func stop() { stopped.store(true, ordering: .relaxed) }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }
}
