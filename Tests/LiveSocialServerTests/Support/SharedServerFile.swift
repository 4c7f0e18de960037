import Foundation
import LiveSocial
import LiveSocialServer
import TestSupport

/// A server file in a temporary directory, and servers opened on it as other processes would.
struct SharedServerFile {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    var url: URL { directory.file("server.sqlite") }

    /// A server on the file, on a manual clock with the fixture's epoch; not watching the file
    /// unless `watchInterval` is given (a test then calls `publishExternalChanges()`).
    func server(clock: ManualClock = ManualClock(), watchInterval: Duration? = nil) throws -> EmbeddedServer {
        try EmbeddedServer(location: .file(url), clock: clock, epoch: ServerFixture.epoch, watchInterval: watchInterval)
    }

    /// Two servers on the file, not watching it, after the first seeded the demo data: the
    /// second opens a file that already holds it, as a second process would.
    func seededPair() async throws -> (first: EmbeddedServer, second: EmbeddedServer) {
        let first = try server()
        try await first.seedDemoData()
        return (first, try server())
    }
}

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
