import Foundation
import Testing

/// The `livedata-server` executable: its one `listening on` line, its first start, its stop on SIGTERM.
@Suite("livedata-server")
struct CommandTests {
    @Test func itPrintsWhereItListensServesAndStopsOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livedata-command-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(arguments: ["--port", "0", "--data", folder.path])
        let (before, line) = await server.lines { $0.hasPrefix("listening on ") }
        let listening = try #require(line, "printed instead: \(before)")
        let address = String(listening.dropFirst("listening on ".count))
        #expect(address.hasPrefix("http://127.0.0.1:"))
        let port = try #require(Int(address.split(separator: ":").last ?? ""))
        #expect(port > 0)
        let credentials = try String(contentsOf: folder.appendingPathComponent("demo-credentials"), encoding: .utf8)
        for pair in credentials.split(separator: "\n") {
            #expect(before.contains { $0.contains(pair) }, "the first start prints \(pair.split(separator: " ")[0])'s password")
        }
        let health = try await HTTP.send("GET", URL(string: address + "/health")!)
        #expect(health.status == 200)
        server.process.terminate()
        #expect(await server.waitForExit() == 0)
    }

    @Test func aBadPortExitsWithAnError() async throws {
        let server = try ServerProcess(arguments: ["--port", "70000", "--data", "/tmp/unused"])
        let (lines, _) = await server.lines { _ in false }
        #expect(!lines.contains { $0.hasPrefix("listening on") })
        #expect(await server.waitForExit() != 0)
    }
}
