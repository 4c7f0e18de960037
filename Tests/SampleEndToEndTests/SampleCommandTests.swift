// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// Commands in general: unknown ones, the help, the end of the input.
@Suite(.timeLimit(.minutes(3)))
struct SampleCommandTests {
    @Test func unknownSlashCommandIsNoticed() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 50)
        try await app.waitForChannels()
        try await app.enter("/bogus")
        try await app.waitFor("notice: unknown command /bogus")
        #expect(await app.finish().status == 0)
    }

    @Test func questionMarkTogglesTheHelp() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 50)
        try await app.waitForChannels()
        try await app.enter("?")
        try await app.waitFor("== Help ==")
        try await app.waitFor("/offline: drop the connection")
        try await app.enter("?")
        try await app.waitFor("== Channels ==")
        #expect(await app.finish().status == 0)
    }

    @Test func endOfInputQuitsWithZero() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 50)
        try await app.waitForChannels()
        let result = await app.finish()
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("bye\n"))
        #expect(result.errors.isEmpty)
    }
}
#endif
