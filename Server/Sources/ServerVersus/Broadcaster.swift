import NIOCore
import Synchronization

/// The floor's open streams.
final class Broadcaster: Sendable {
    private let streams = Mutex<[Int: AsyncStream<ByteBuffer>.Continuation]>([:])
    private let nextId = Atomic<Int>(0)

    func add(_ continuation: AsyncStream<ByteBuffer>.Continuation) -> Int {
        let id = nextId.wrappingAdd(1, ordering: .relaxed).oldValue
        streams.withLock { $0[id] = continuation }
        return id
    }

    func remove(_ id: Int) {
        _ = streams.withLock { $0.removeValue(forKey: id) }
    }

    /// Hands `frame` to every stream; the continuations run after the lock is released.
    func broadcast(_ frame: ByteBuffer) {
        let all = streams.withLock { Array($0.values) }
        for continuation in all { continuation.yield(frame) }
    }
}
