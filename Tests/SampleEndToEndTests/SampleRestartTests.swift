// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// A second run over the same data folder: the cache shows first, then the server's data.
@Suite(.timeLimit(.minutes(3)))
struct SampleRestartTests {
    @Test func secondRunShowsTheCacheThenFreshData() async throws {
        let folder = try TemporaryDirectory()

        let first = try SampleProcess(data: folder, latency: 50)
        try await first.openChat("general")
        try first.send("Kept in the cache")
        try await first.waitForSentLine("ada", "Kept in the cache")
        try first.send("/quit")
        let firstResult = await first.finish()
        #expect(firstResult.status == 0)
        #expect(firstResult.output.hasSuffix("bye\n"))
        #expect(!firstResult.output.contains("while you were away"), "a first run has no notice of what happened")

        let second = try SampleProcess(data: folder, latency: 300)
        try await second.waitFor("notice: while you were away: 5 things happened", movingMark: false)
        let channels = try await second.waitFor(SampleProcess.channelsFresh)
        let local = channels.range(of: "· local │ N open")
        #expect(local != nil, "the channel list shows its cached rows as `· local` before `· fresh`:\n\(channels)")

        try await second.enter("/open general")
        let cached = try await second.waitForSentLine("ada", "Kept in the cache")
        #expect(!cached.isEmpty)
        let chat = try await second.waitFor(SampleProcess.chatFresh)
        #expect(chat.contains("· local │ type to send"), "the chat shows cached messages as local first")

        let result = await second.finish()
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }
}
#endif
