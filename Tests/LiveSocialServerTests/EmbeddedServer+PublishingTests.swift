import LiveSocial
@testable import LiveSocialServer
import Testing

/// When a server's events reach the streams that subscribed: every change committed after a
/// stream subscribed reaches it, whatever the moment of the subscription within the write.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct EmbeddedServerPublishingTests {
    /// A write finds nobody listening, so it does not address its events; a stream subscribes
    /// before the write commits. It is owed the write's events, and they reach it.
    @Test func aStreamThatSubscribedBeforeTheCommitOfAWriteThatFoundNobodyListeningGetsItsEvents() async throws {
        let fixture = try await ServerFixture.seeded()
        let alan = fixture.connection("alan")
        let (subscriptions, subscribe) = AsyncStream.makeStream(of: AsyncStream<SocialEvent>.self)
        await fixture.server.setAfterAddressing {
            subscribe.yield(alan.events())
            subscribe.finish()
        }
        let sent = try await fixture.connection("ada").perform(.sendText("meanwhile", channelId: "ada-alan", clientRequestId: "m1"))
        await fixture.server.setAfterAddressing(nil)
        var subscribed = subscriptions.makeAsyncIterator()
        let stream = try #require(await subscribed.next())
        // A change everyone sees, after the send: what the stream has not received by then, it never will.
        let fence = try await fixture.server.perform(.updateUser(displayName: nil, about: "fence", avatarURL: nil), as: "tim")
        var received: [Int64] = []
        for await event in stream {
            guard let sequence = event.sequence else { continue }
            received.append(sequence)
            if sequence >= fence.sequence { break }
        }
        #expect(received.contains(sent.sequence), "the send's events, committed after the stream subscribed")
        #expect(received.last == fence.sequence)
    }
}
