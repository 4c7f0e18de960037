import LiveData
import LiveRepository
@_spi(Testing) import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

// Helpers of the `MessageCollection…Tests` suites.


/// How many copies of `message` (by client request id) the collection shows, in any of its lists.
@MainActor
func shownCopies(of message: Message, in collection: MessageCollection) -> Int {
    (collection.succeededMessages + collection.pendingMessages + collection.failedMessages)
        .filter { $0.clientRequestId == message.clientRequestId }.count
}

/// Every report the delegate heard about `message`, as "kind status", in order.
@MainActor
func reports(of message: Message, in recorder: MessageCollectionRecorder) -> [String] {
    recorder.log.all.compactMap { event -> String? in
        guard let context = event.context, event.messages.contains(where: { $0.clientRequestId == message.clientRequestId })
        else { return nil }
        let kind = switch event {
        case .added: "added"
        case .updated: "updated"
        default: "deleted"
        }
        return "\(kind) \(context.sendingStatus.rawValue)"
    }
}

/// Waits until the client has heard that the connection is up, so that sends go out at once.
@MainActor
func waitUntilConnected(_ client: SocialClient) async throws {
    while !client.isConnected {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Where a collection opens in a history of 100 messages, and what it must then list.
enum StartingPoint: String, CaseIterable, Sendable {
    case newest, lastRead, beforeAll, afterAll

    func expectations(in all: [Message]) -> (point: Double, messages: [Message], hasPrevious: Bool, hasNext: Bool) {
        switch self {
        case .newest: (.infinity, Array(all[80..<100]), true, false)
        case .lastRead: (all[50].createdAt, Array(all[30..<50] + all[51..<71]), true, true)
        case .beforeAll: (all[0].createdAt - 1, Array(all[0..<20]), false, true)
        case .afterAll: (all[99].createdAt + 1, Array(all[80..<100]), true, false)
        }
    }
}

extension MessageCollection {
    /// Observes ``events`` forever into a log.
    func recordEvents() -> (Deliveries<MessageCollectionEvent>, Observer<MessageCollectionEvent?>) {
        let log = Deliveries<MessageCollectionEvent>()
        let observer = events.observeForever { event in if let event { log.record(event) } }
        return (log, observer)
    }

    /// The snapshot the collection's state makes now.
    var currentSnapshot: MessageCollectionSnapshot {
        var snapshot = MessageCollectionSnapshot()
        snapshot.succeededMessages = succeededMessages
        snapshot.pendingMessages = pendingMessages
        snapshot.failedMessages = failedMessages
        snapshot.hasPrevious = hasPrevious
        snapshot.hasNext = hasNext
        snapshot.channel = channel
        return snapshot
    }

    /// ``loadPrevious(completionHandler:)``, awaited.
    func loadPreviousWithHandler() async -> (messages: [Message]?, error: (any Error)?) {
        await withCheckedContinuation { continuation in
            loadPrevious { messages, error in continuation.resume(returning: (messages, error)) }
        }
    }

    /// ``loadNext(completionHandler:)``, awaited.
    func loadNextWithHandler() async -> (messages: [Message]?, error: (any Error)?) {
        await withCheckedContinuation { continuation in
            loadNext { messages, error in continuation.resume(returning: (messages, error)) }
        }
    }
}


/// A started collection, the recorder that is its delegate, and what its start handlers received.
struct OpenedCollection {
    let collection: MessageCollection
    let recorder: MessageCollectionRecorder
    let result: StartResult
}

extension ClientFixture {
    /// Creates a collection with a recorder as its delegate and starts it.
    func open(
        _ channelId: String, at startingPoint: Double = .infinity, params: MessageListParams = MessageListParams(),
        hugeGapThreshold: Int = 300
    ) async throws -> OpenedCollection {
        let collection = client.createMessageCollection(
            channelId: channelId, startingPoint: startingPoint, params: params, hugeGapThreshold: hugeGapThreshold)
        let recorder = MessageCollectionRecorder()
        collection.delegate = recorder
        let result = await collection.start()
        return OpenedCollection(collection: collection, recorder: recorder, result: result)
    }

    /// A new channel of `count` messages, a millisecond apart, that the client has not cached
    /// (loaded without real-time events); returns its id and the messages, oldest first.
    func loadHistory(count: Int) async throws -> (channelId: String, messages: [Message]) {
        let channelId = try #require(try await server.bulkLoadMessages(count: count, channelCount: 1).first)
        return (channelId, try await serverMessages(channelId))
    }

    /// The server's messages of a channel, oldest first.
    func serverMessages(_ channelId: String) async throws -> [Message] {
        try await server.records(.messages(channelId: channelId, newestFirst: false))
    }

    /// The cached copy of a message, or nil.
    func cachedMessage(_ id: String) async throws -> Message? {
        try await client.store.read { try Message.read(id: id, from: $0) }
    }

    /// Sends a text message as another user (alan by default) and returns the server's copy.
    @discardableResult
    func sendAsOther(
        _ text: String, to channelId: String = "general", as userId: String = "alan", metaArrays: [String: [String]] = [:]
    ) async throws -> Message {
        let result = try await server.perform(
            .sendMessage(channelId: channelId, clientRequestId: "\(userId)-\(text)", type: .text, text: text, parentId: nil,
                         metaArrays: metaArrays),
            as: userId)
        return try #require(result.first(Message.self))
    }
}

extension MessageCollectionEvent {
    /// Whether this adds messages, reported with `source` when one is given.
    func isAdded(source: MessageEventSource? = nil) -> Bool {
        if case .added(_, let context) = self { source.map { $0 == context.source } ?? true } else { false }
    }

    /// Whether this updates messages, reported with `source` when one is given.
    func isUpdated(source: MessageEventSource? = nil) -> Bool {
        if case .updated(_, let context) = self { source.map { $0 == context.source } ?? true } else { false }
    }

    /// Whether this deletes messages, reported with `source` when one is given.
    func isDeleted(source: MessageEventSource? = nil) -> Bool {
        if case .deleted(_, let context) = self { source.map { $0 == context.source } ?? true } else { false }
    }

    /// Whether this reports a change of the channel.
    var isChannelUpdated: Bool {
        if case .channelUpdated = self { true } else { false }
    }

    /// Whether this reports the channel's deletion.
    var isChannelDeleted: Bool {
        if case .channelDeleted = self { true } else { false }
    }
}

extension MessageCollectionRecorder {
    /// Every message added so far, in order.
    var addedMessages: [Message] {
        log.all.flatMap { event -> [Message] in
            guard case .added(let messages, _) = event else { return [] }
            return messages
        }
    }
}

extension SocialClient {
    /// Waits until the cached copy of a message satisfies `condition`.
    func waitForCache(id: String, where condition: @escaping (Message?) -> Bool) async throws {
        let object = LiveObject<Message>(store: store, id: id, fetch: nil)
        let (log, token) = object.record()
        _ = try await object.next(in: log) { condition($0.snapshot) }
        withExtendedLifetime((object, token)) {}
    }
}
