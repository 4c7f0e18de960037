import Foundation
import Synchronization

/// The open event streams, so that stopping the server ends them instead of waiting for their
/// clients to leave.
final class StreamRegistry: Sendable {
    private let finishers = Mutex<[UUID: @Sendable () -> Void]>([:])

    /// Registers a stream's finish function; returns the id to remove it with.
    func add(_ finish: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        finishers.withLock { $0[id] = finish }
        return id
    }

    /// Forgets a stream that ended.
    func remove(_ id: UUID) {
        _ = finishers.withLock { $0.removeValue(forKey: id) }
    }

    /// How many streams are open.
    var count: Int { finishers.withLock { $0.count } }

    /// Ends every open stream. The finish functions run after the lock is released.
    func finishAll() {
        let all = finishers.withLock { finishers in
            defer { finishers = [:] }
            return Array(finishers.values)
        }
        for finish in all { finish() }
    }
}
