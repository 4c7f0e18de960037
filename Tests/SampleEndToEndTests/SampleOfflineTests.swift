// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// Going offline and back: the change-log catch-up, the huge gap, and messages sent while offline.
@Suite(.timeLimit(.minutes(3)))
struct SampleOfflineTests {
    @Test func replyWhileOfflineArrivesThroughTheChangeLog() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 100)
        try await app.openChat("general")

        try app.send("/offline")
        try await app.waitFor("status: ada · ○ offline")
        try app.send("/reply While you were offline")
        try await app.waitFor("notice: alan replied in #general")
        try await app.enter("/online")
        #expect(!app.outputBeforeMark.contains("alan: While you were offline"), "the reply showed while offline")

        try await app.waitFor("notice: caught up: 1 message change from the change log", movingMark: false)
        try await app.waitForSentLine("alan", "While you were offline")
        #expect(app.outputSoFar.contains("status: ada · ● online"))

        #expect(await app.finish().status == 0)
    }

    @Test func floodWhileOfflineIsAHugeGapThatReloadsTheNewest() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 100)
        try await app.openChat("general")

        try app.send("/offline")
        try await app.waitFor("status: ada · ○ offline")
        try app.send("/flood 350")
        try await app.waitFor("notice: others sent 350 messages in #general")
        try await app.enter("/online")
        #expect(!app.outputBeforeMark.contains("Message 350 of 350"), "a flood message showed while offline")

        try await app.waitFor("notice: huge gap", movingMark: false)
        try await app.waitForSentLine("tim", "Message 350 of 350 while you were away")

        #expect(await app.finish().status == 0)
    }

    @Test func messageSentWhileOfflineStaysPendingUntilOnline() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 100)
        try await app.openChat("general")

        try app.send("/offline")
        try await app.waitFor("status: ada · ○ offline")
        try await app.enter("Written offline")
        try await app.waitFor("notice: offline: the message will be sent", movingMark: false)
        let pending = try await app.waitForLine("the pending line") { $0.contains("ada: Written offline") }
        #expect(pending.hasPrefix("…"))
        #expect(pending.hasSuffix("  (sending)"))

        try await app.enter("/online")
        let beforeOnline = app.outputBeforeMark.split(separator: "\n")
        #expect(!beforeOnline.contains { $0.contains("ada: Written offline") && !$0.contains("(sending)") },
                "the message was sent while offline")
        try await app.waitForSentLine("ada", "Written offline")

        #expect(await app.finish().status == 0)
    }
}
#endif
