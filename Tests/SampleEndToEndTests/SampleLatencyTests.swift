// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// A slow server: the app never waits for it. What is typed shows at once, and a message is
/// pending, so in the cache on disk, from the frame after its Enter.
///
/// The README's scenario is `--latency 3000`; the tests use 10 s, so that a machine loaded by the
/// tests running beside them cannot let the server answer before a check that it has not.
/// Nothing here waits for the server, so the longer latency costs no time.
@Suite(.timeLimit(.minutes(3)))
struct SampleLatencyTests {
    static let slow = 10_000

    @Test func threeMessagesTypedInARowAreAllPendingBeforeTheServerAnswersAny() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: Self.slow)
        // The channel list is still loading: opening a chat by its id does not wait for it.
        try await app.enter("/open general")
        try await app.waitFor("== #general ==")
        let texts = ["one", "two", "three"]
        for text in texts { try app.send(text) }

        // Each Enter is read, echoed and its message shown pending, in the order typed, while the
        // server (ten seconds a request) has answered none of them, nor opened the chat.
        for text in texts { try await app.waitFor("> \(text)", movingMark: false) }
        for text in texts {
            let pending = try await app.waitForLine("\(text) pending") { $0.hasSuffix(" ada: \(text)  (sending)") }
            #expect(pending.hasPrefix("…"))
        }
        let shown = app.outputSoFar
        #expect(!shown.contains(SampleProcess.chatFresh), "the server has not answered the chat's start yet:\n\(shown)")
        for text in texts {
            #expect(!shown.contains(" ada: \(text)\n"), "\(text) is not sent yet:\n\(shown)")
        }

        // Pending means in the outbox, on disk: a `kill -9` now loses none of them, and the next
        // run sends them, in the order typed.
        _ = await app.kill()
        let next = try SampleProcess(data: folder, latency: 50)
        try await next.enter("/open general")
        for text in texts { try await next.waitForSentLine("ada", text) }
        #expect(await next.finish().status == 0)
    }

    @Test func aMessageTypedJustBeforeQuittingIsKeptWithoutWaitingForTheServer() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: Self.slow)
        // One script, read at once: the quit comes before the message could have reached the server.
        try app.send("/open general\ntyped, then quit\n/quit")
        let first = await app.finish()
        #expect(first.status == 0)
        #expect(!first.output.contains(" ada: typed, then quit\n"), "quitting did not wait for the server:\n\(first.output)")

        let next = try SampleProcess(data: folder, latency: 50)
        try await next.enter("/open general")
        try await next.waitForSentLine("ada", "typed, then quit")
        #expect(await next.finish().status == 0)
    }

    @Test func aCommandTypedWhileASendIsInFlightRunsAtOnce() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: Self.slow)
        try await app.enter("/open general")
        try app.send("in flight")
        try await app.waitForLine("the pending message") { $0.hasSuffix(" ada: in flight  (sending)") }
        // The input loop is free: a command typed now runs now, long before the send is answered.
        try await app.enter("?")
        try await app.waitFor("== Help ==")
        #expect(!app.outputSoFar.contains(" ada: in flight\n"), "the send is still with the server")
        #expect(await app.finish().status == 0)
    }
}
#endif
