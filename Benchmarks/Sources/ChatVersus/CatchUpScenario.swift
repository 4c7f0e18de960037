import BenchmarkSupport
import LiveSocial

/// Scenario 2: a collection open at the newest messages while the connection drops, another
/// member sends messages, and the connection comes back; timed from `reconnect()` to the
/// delegate call that brings the last missed message with the source `.changelog`.
@MainActor
struct CatchUpScenario {
    let fixture: ChatFixture
    private let clock = ContinuousClock()

    /// One timed round.
    struct Round {
        var milliseconds: Double
        /// Delegate calls that brought the missed messages.
        var calls: Int
    }

    /// What a gap over the threshold gave.
    struct HugeGap {
        var missed: Int
        var threshold: Int
        /// From `reconnect()` to `didDetectHugeGap`.
        var milliseconds: Double
        /// Whether `events` holds `.hugeGapDetected` afterwards.
        var eventSeen: Bool
    }

    /// A round that misses `missed` messages (fewer than the huge-gap threshold).
    func round(_ number: Int, missed: Int) async throws -> Round {
        let (collection, listener) = await openAtNewest(target: missed)
        let reconnected = try await missMessages(missed, tag: "round-\(number)")
        let end = await listener.caughtUp.wait("catch-up of \(missed) messages in round \(number)")
        // Whatever else the catch-up brings (the channel's new state) comes in the same commit.
        let snapshot = collection.snapshot.data
        collection.dispose()
        guard listener.changelogAdded == missed, listener.otherChanges == 0,
              snapshot?.succeededMessages.count == 20 + missed,
              snapshot?.succeededMessages.last?.text == Self.text(missed - 1, tag: "round-\(number)")
        else {
            fatalError("round \(number): \(listener.changelogAdded) messages added from the change log, "
                + "\(listener.otherChanges) other changes, \(snapshot?.succeededMessages.count ?? 0) in the snapshot")
        }
        return Round(milliseconds: milliseconds(reconnected.duration(to: end)), calls: listener.changelogCalls)
    }

    /// Misses `missed` messages, more than the huge-gap threshold, and checks that the collection
    /// reports the huge gap instead of adding them.
    func hugeGap(missed: Int) async throws -> HugeGap {
        let (collection, listener) = await openAtNewest(target: missed)
        let reconnected = try await missMessages(missed, tag: "gap")
        let end = await listener.hugeGap.wait("didDetectHugeGap after \(missed) missed messages")
        // Give a wrong catch-up the time to deliver anything before checking that nothing came.
        try await Task.sleep(for: .milliseconds(200))
        let eventSeen = collection.events.data == .hugeGapDetected
        let threshold = collection.hugeGapThreshold
        collection.dispose()
        guard listener.changelogAdded == 0, listener.otherChanges == 0 else {
            fatalError("huge gap: \(listener.changelogAdded) messages were added from the change log anyway")
        }
        return HugeGap(
            missed: missed, threshold: threshold, milliseconds: milliseconds(reconnected.duration(to: end)),
            eventSeen: eventSeen)
    }

    /// A new collection at the newest messages, connected and started, with its delegate.
    private func openAtNewest(target: Int) async -> (MessageCollection, CatchUpListener) {
        let listener = CatchUpListener(target: target)
        let collection = fixture.client.createMessageCollection(channelId: ChatFixture.channelId, startingPoint: .infinity)
        collection.delegate = listener
        let served = Awaited<Int>()
        collection.startCollection(apiResultHandler: { messages, error in
            guard let messages else { fatalError("API result at the newest messages: \(String(describing: error))") }
            served.fire(messages.count)
        })
        let count = await served.wait("API result at the newest messages")
        guard count == 20, !collection.hasNext else { fatalError("opened at the newest messages with \(count), hasNext") }
        return (collection, listener)
    }

    /// Disconnects, has the sender send `count` messages, and reconnects; returns the time
    /// just before `reconnect()`.
    private func missMessages(_ count: Int, tag: String) async throws -> ContinuousClock.Instant {
        let server = fixture.server
        server.disconnect()
        await fixture.waitUntilConnected(false)
        for index in 0..<count {
            try await server.perform(
                .sendText(Self.text(index, tag: tag), channelId: ChatFixture.channelId, clientRequestId: "missed-\(tag)-\(index)"),
                as: ChatFixture.senderId)
        }
        let start = clock.now
        server.reconnect()
        return start
    }

    private static func text(_ index: Int, tag: String) -> String { "Missed \(index) (\(tag))" }
}
