// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// A chat: sending, the pending state, and other members' messages arriving live.
@Suite(.timeLimit(.minutes(3)))
struct SampleChatTests {
    @Test func sentMessageShowsAsSendingThenAsSent() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 300)
        try await app.openChat("general")

        try await app.enter("Testing, one two")
        let pending = try await app.waitForLine("the first line of the message") { $0.contains("ada: Testing, one two") }
        #expect(pending.hasPrefix("…"))
        #expect(pending.hasSuffix("ada: Testing, one two  (sending)"))
        #expect(SampleProcess.isChatLine(Substring(pending)))
        let sent = try await app.waitForSentLine("ada", "Testing, one two")
        #expect(!sent.contains("(sending)"))

        let result = await app.finish()
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("bye\n"))
    }

    @Test func chatOpensByRowNumber() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 50)
        try await app.waitForChannels()
        try await app.enter("1")
        try await app.waitFor("== #")
        try await app.waitFor(SampleProcess.chatFresh)
        #expect(await app.finish().status == 0)
    }

    @Test func otherMembersReplyArrivesLive() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 100)
        try await app.openChat("general")

        try await app.enter("/reply Hi from the other side")
        try await app.waitFor("notice: alan replied in #general", movingMark: false)
        try await app.waitForSentLine("alan", "Hi from the other side")

        #expect(await app.finish().status == 0)
    }
}
#endif
