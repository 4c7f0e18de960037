import Synchronization

/// The triggers a ``FaultProxy`` rule was asked about, in order.
final class TriggerLog: Sendable {
    private let triggers = Mutex<[FaultTrigger]>([])

    func append(_ trigger: FaultTrigger) {
        triggers.withLock { $0.append(trigger) }
    }

    var all: [FaultTrigger] { triggers.withLock { $0 } }
}
