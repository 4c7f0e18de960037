import LiveSocial

/// The delegate of a catch-up round: counts the messages added with the source `.changelog`
/// and notes the moment the count reaches the target, or the huge gap.
@MainActor
final class CatchUpListener: MessageCollectionDelegate {
    /// How many messages the catch-up must add.
    let target: Int
    /// Messages added from the change log so far, and delegate calls that brought them.
    private(set) var changelogAdded = 0
    private(set) var changelogCalls = 0
    /// Messages added, updated or deleted from any other source, or with another status.
    private(set) var otherChanges = 0
    /// The time the added count reached ``target``.
    let caughtUp = Awaited<ContinuousClock.Instant>()
    /// The time `didDetectHugeGap` was called.
    let hugeGap = Awaited<ContinuousClock.Instant>()
    private let clock = ContinuousClock()

    init(target: Int) { self.target = target }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]
    ) {
        let now = clock.now
        guard context.source == .changelog, context.sendingStatus == .succeeded else {
            otherChanges += addedMessages.count
            return
        }
        changelogAdded += addedMessages.count
        changelogCalls += 1
        if changelogAdded >= target { caughtUp.fire(now) }
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]
    ) {
        otherChanges += updatedMessages.count
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message]
    ) {
        otherChanges += deletedMessages.count
    }

    func didDetectHugeGap(_ collection: MessageCollection) {
        hugeGap.fire(clock.now)
    }
}
