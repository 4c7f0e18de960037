import Foundation
import LiveRepository
@testable import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct ServerFileWatcherTests {
    @Test func aCommitByAnotherConnectionCallsPublishAndAFailedCallIsMadeAgain() async throws {
        let file = try SharedServerFile()
        let server = try file.server()
        let (calls, continuation) = AsyncStream<Int>.makeStream()
        let counter = CallCounter()
        // The server published nothing yet, as far as this watcher knows.
        let watcher = try ServerFileWatcher(file: file.url, detection: .polling(every: .milliseconds(1))) { 0 }
        watcher.start {
            let call = counter.next()
            continuation.yield(call)
            return call > 1  // the first call fails
        }
        try await server.createUser(id: "u", displayName: "U")
        var iterator = calls.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        // No new commit: the failed call alone brings the second one.
        #expect(await iterator.next() == 2)
        _ = watcher
    }
}

/// Counts calls from any thread.
///
/// `@unchecked Sendable`: `lock` guards `count`.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The number of this call, from 1.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}
