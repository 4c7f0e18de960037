import LiveSocial
import Synchronization

/// Collects the message creations one event stream delivers, in order, until a count is reached.
final class EventCollector: Sendable {
    /// What arrived so far.
    private final class Received: Sendable {
        let state = Mutex<(sequences: [Int64], messageIds: [String])>(([], []))
    }

    private let received = Received()
    private let task: Task<Void, Never>

    /// Reads `events` until `expected` messages were created (or the stream ends).
    init(_ events: AsyncStream<SocialEvent>, expected: Int) {
        let received = self.received
        task = Task {
            for await event in events {
                guard case .created(.message(let message), let sequence) = event else { continue }
                let count = received.state.withLock { state in
                    state.sequences.append(sequence)
                    state.messageIds.append(message.id)
                    return state.messageIds.count
                }
                if count >= expected { return }
            }
        }
    }

    /// Waits until the expected count arrived, at most `limit`; then what arrived.
    func finish(within limit: Duration) async -> (sequences: [Int64], messageIds: [String]) {
        let task = self.task
        let timer = Task {
            try? await Task.sleep(for: limit)
            task.cancel()
        }
        await task.value
        timer.cancel()
        return received.state.withLock { $0 }
    }
}
