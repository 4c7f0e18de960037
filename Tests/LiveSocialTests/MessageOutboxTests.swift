import Dispatch
import LiveRepository
@testable import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// The outbox's order of work: a message is sent only once its pending copy is committed, so that
/// the copy's commit cannot come after the send's failure and end the wait before its retry.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct MessageOutboxTests {
    @Test func aMessageIsNotSentBeforeItsPendingCopyIsCommittedAndItsRetryWaitsItsFullTime() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(1)
        // The store's queue is held, so the message's pending copy waits to be written.
        let gate = DispatchSemaphore(value: 0)
        client.store.enqueueWrite { _ in gate.wait() }
        let sending = Task { try await client.messages.send("stored first", to: "general") }
        try await waitUntilHolds { client.outbox.storingRequestIds.count == 1 }
        // A resend asked for meanwhile runs the queue while the copy is not committed.
        await client.outbox.resume().value
        let sentEarly = client.outbox.inFlightRequestId != nil || !fixture.api.attempts.isEmpty
        gate.signal()
        try #require(!sentEarly, "the message was sent before its pending copy was committed")

        // The copy's commit sends it; the server fails it, and the retry waits its full half second.
        await #expect(throws: FlakySendsAPI.failure) { try await sending.value }
        let requestId = try #require(fixture.api.attempts.first)
        #expect(try await fixture.advanceResendClock(by: .milliseconds(499)))
        try await settle(client)
        #expect(fixture.api.attempts == [requestId])
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))
        try await waitUntil(recorder) { collection.pendingMessages.isEmpty }
        #expect(fixture.api.attempts == [requestId, requestId])
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
    }
}
