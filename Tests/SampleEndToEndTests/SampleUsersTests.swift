// Runs the built sample as child processes: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// The data folder of many users: an older version's shared cache, and `--reset` while someone
/// is signed in.
@Suite(.timeLimit(.minutes(3)))
struct SampleUsersTests {
    @Test func anOlderVersionsCacheMovesToItsUserWhoseUnsentMessageIsSentAtLast() async throws {
        let folder = try TemporaryDirectory()
        let first = try SampleProcess(data: folder, latency: 0)
        try await first.openChat("general")
        try await first.enter("/offline")
        try await first.enter("Written before the upgrade")
        try await first.waitForLine("the pending message") { $0.contains("ada: Written before the upgrade  (sending)") }
        #expect(await first.finish().status == 0)

        // The layout of an older version: one cache at the top of the folder.
        let files = FileManager.default
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: folder.file("users/ada/cache.sqlite\(suffix)").path) {
            try files.moveItem(at: folder.file("users/ada/cache.sqlite\(suffix)"), to: folder.file("cache.sqlite\(suffix)"))
        }
        try files.removeItem(at: folder.file("users"))

        let second = try SampleProcess(data: folder, latency: 0)
        try await second.waitFor("moved the older version's cache, with ada's 1 unsent change, to users/ada/", movingMark: false)
        try await second.waitForChannels()
        try await second.enter("/open general")
        try await second.waitForSentLine("ada", "Written before the upgrade")
        #expect(await second.finish().status == 0)
        #expect(!folder.contents.contains("cache.sqlite"))
        #expect(!folder.contents.contains("legacy"))
        let sent = try SampleDataFiles(folder: folder).serverMessages(in: "general").filter { $0.text == "Written before the upgrade" }
        #expect(sent.count == 1)
    }

    @Test func resetIsRefusedWhileAnotherUsersAppRuns() async throws {
        let folder = try TemporaryDirectory()
        let ada = try SampleProcess(data: folder, latency: 0)
        try await ada.waitForChannels()
        let reset = await (try SampleProcess(data: folder, latency: 0, arguments: ["--user", "alan", "--reset"])).finish()
        #expect(reset.status == 1)
        #expect(reset.errors == "LiveDataSample: cannot start over while ada is signed in on this data folder: quit that app first.\n")
        #expect(folder.contents.contains("server.sqlite"), "nothing was deleted")
        #expect(await ada.finish().status == 0)

        let again = try SampleProcess(data: folder, latency: 0, arguments: ["--reset"])
        try await again.waitForChannels()
        #expect(!again.outputSoFar.contains("while you were away"), "a new start: the server was seeded again")
        #expect(await again.finish().status == 0)
    }
}
#endif
