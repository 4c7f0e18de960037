import Foundation
import LiveRepository
import LiveSocial
@testable import LiveSocialServer
import TestSupport
import Testing

/// A server woken by another process's commit to its file, through the wake-up channel alone.
@Suite(.timeLimit(.minutes(2))) @MainActor struct EmbeddedServerWakeUpTests {
    @Test func aCommitByAServerInAnotherProcessWakesThisServer() async throws {
        let file = try SharedServerFile()
        // No timer: only a wake-up brings the other process's messages.
        let server = try file.server(externalChanges: .wakeUps(checkingEvery: nil))
        try await server.seedDemoData()
        #expect(ExternalChangeMonitor.shared.readsChannel(of: file.url))
        let log = EventLog(server.connection(userId: "ada"))
        let start = try await server.latestSequence()
        let child = try HelperProcess(["server-send", file.url.path, "alan", "general", "3", "child"])
        #expect(await child.nextLine() == "ready")
        child.send("go")
        #expect(await child.nextLine(startingWith: "sent-all") == "sent-all")
        let end = try await server.latestSequence()
        #expect(end > start)
        child.send("through \(end)")
        #expect(await child.exitStatus() == 0)
        try await log.waitForSequence(end)
        #expect(log.sequences == Array(start + 1...end))
        #expect(ExternalChangeMonitor.shared.channelWakeCount(of: file.url) >= 1)
    }
}
