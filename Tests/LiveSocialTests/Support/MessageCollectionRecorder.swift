import LiveData
import LiveSocial
import TestSupport

/// The delegate of a message collection under test: records every call, in order, as the
/// matching ``MessageCollectionEvent``, so a test can await them.
@MainActor
final class MessageCollectionRecorder: MessageCollectionDelegate {
    let log = Deliveries<MessageCollectionEvent>()

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]
    ) {
        log.record(.added(addedMessages, context))
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]
    ) {
        log.record(.updated(updatedMessages, context))
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message]
    ) {
        log.record(.deleted(deletedMessages, context))
    }

    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, updatedChannel channel: Channel) {
        log.record(.channelUpdated(channel, channelContext))
    }

    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, deletedChannel channelId: String) {
        log.record(.channelDeleted(channelId, channelContext))
    }

    func didDetectHugeGap(_ collection: MessageCollection) {
        log.record(.hugeGapDetected)
    }

    /// Waits for the next call that satisfies `condition`.
    func next(where condition: (MessageCollectionEvent) -> Bool) async throws -> MessageCollectionEvent {
        try await log.next(where: condition)
    }
}

/// What the two handlers of `startCollection` received.
struct StartResult {
    var cached: [Message]?
    var cacheError: (any Error)?
    var api: [Message]?
    var apiError: (any Error)?
}

extension MessageCollection {
    /// Starts the collection and waits for both handlers.
    func start() async -> StartResult {
        await withCheckedContinuation { continuation in
            var result = StartResult()
            startCollection(initPolicy: .cacheAndReplaceByApi, cacheResultHandler: { messages, error in
                result.cached = messages
                result.cacheError = error
            }, apiResultHandler: { messages, error in
                result.api = messages
                result.apiError = error
                continuation.resume(returning: result)
            })
        }
    }
}

extension MessageCollectionEvent {
    /// The messages of a message event, else empty.
    var messages: [Message] {
        switch self {
        case .added(let messages, _), .updated(let messages, _), .deleted(let messages, _): messages
        case .channelUpdated, .channelDeleted, .hugeGapDetected: []
        }
    }

    /// The context of a message event, else nil.
    var context: MessageContext? {
        switch self {
        case .added(_, let context), .updated(_, let context), .deleted(_, let context): context
        case .channelUpdated, .channelDeleted, .hugeGapDetected: nil
        }
    }
}
