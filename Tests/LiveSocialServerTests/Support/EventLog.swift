import LiveSocial
import LiveSocialServer
import TestSupport

/// The events a connection receives, awaited one by one.
@MainActor
final class EventLog {
    let deliveries = Deliveries<SocialEvent>()
    private var task: Task<Void, Never>?

    /// Subscribes to `connection`'s events now.
    init(_ connection: EmbeddedServer.Connection) {
        let stream = connection.events()
        let deliveries = self.deliveries
        task = Task { @MainActor in
            for await event in stream { deliveries.record(event) }
        }
    }

    isolated deinit { task?.cancel() }

    /// Every change event received so far (connection events left out).
    var changes: [SocialEvent] { deliveries.all.filter { $0.sequence != nil } }

    /// The sequence numbers of every change event received so far, in the order received.
    var sequences: [Int64] { changes.compactMap(\.sequence) }

    /// Waits until the change event of `sequence` (or a later one) has arrived.
    func waitForSequence(_ sequence: Int64) async throws {
        if let last = sequences.last, last >= sequence { return }
        _ = try await deliveries.next { ($0.sequence ?? 0) >= sequence }
    }
}
