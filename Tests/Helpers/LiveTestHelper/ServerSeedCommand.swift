import Foundation
import LiveSocialServer

/// `server-seed <file>`: opens an `EmbeddedServer` on a server file and prints `ready`; after a
/// line `go` on standard input it seeds the demo data and prints `seeded true` (this process
/// seeded) or `seeded false` (it was there already), and exits 0; 1 on an error.
enum ServerSeedCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        guard let path = arguments.first else {
            ServerIO.complain("usage: server-seed <file>")
            return 64
        }
        do {
            let server = try EmbeddedServer(location: .file(URL(fileURLWithPath: path)), externalChanges: .off)
            ServerIO.say("ready")
            guard await ServerIO.waitForLine(startingWith: "go") != nil else { return 1 }
            let seeded = try await server.seedDemoData()
            ServerIO.say("seeded \(seeded)")
            return 0
        } catch {
            ServerIO.complain("server-seed failed: \(error)")
            return 1
        }
    }
}
