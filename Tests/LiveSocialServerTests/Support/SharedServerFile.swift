import Foundation
import LiveRepository
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
    /// unless `externalChanges` says so (a test then calls `publishExternalChanges()`).
    func server(clock: ManualClock = ManualClock(), externalChanges: ExternalChangeDetection = .off) throws -> EmbeddedServer {
        try EmbeddedServer(location: .file(url), clock: clock, epoch: ServerFixture.epoch, externalChanges: externalChanges)
    }

    /// Two servers on the file, not watching it, after the first seeded the demo data: the
    /// second opens a file that already holds it, as a second process would.
    func seededPair() async throws -> (first: EmbeddedServer, second: EmbeddedServer) {
        let first = try server()
        try await first.seedDemoData()
        return (first, try server())
    }
}
