import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

// Helpers of the `MessageSending…Tests` suites.


/// A kind of message report a collection makes.
enum ReportKind: String {
    case added, updated, deleted
}

/// How a send ended, for a send a test does not await.
@MainActor
final class SendOutcome {
    var result: Result<Message, any Error>?

    func run(_ send: () async throws -> Message) async {
        do { result = .success(try await send()) } catch { result = .failure(error) }
    }
}

/// A collection of `general` (or `channelId`) started, with a recorder as its delegate.
@MainActor
func openCollection(
    _ client: SocialClient, channelId: String = "general"
) async throws -> (MessageCollection, MessageCollectionRecorder, StartResult) {
    let collection = client.createMessageCollection(channelId: channelId)
    let recorder = MessageCollectionRecorder()
    collection.delegate = recorder
    let start = await collection.start()
    return (collection, recorder, start)
}

/// The kind of a message report, or nil for a channel report.
func reportKind(of event: MessageCollectionEvent) -> ReportKind? {
    switch event {
    case .added: .added
    case .updated: .updated
    case .deleted: .deleted
    case .channelUpdated, .channelDeleted, .hugeGapDetected: nil
    }
}

/// Every report the recorder heard about the message with `requestId`, as "kind status", in order.
@MainActor
func steps(of requestId: String, in recorder: MessageCollectionRecorder) -> [String] {
    recorder.log.all.compactMap { event in
        guard let kind = reportKind(of: event), let context = event.context,
              event.messages.contains(where: { $0.clientRequestId == requestId }) else { return nil }
        return "\(kind.rawValue) \(context.sendingStatus.rawValue)"
    }
}

/// Waits for the next report of `kind` with `status` holding the message with `requestId` (any
/// message when nil), and returns that message and the report's context.
@MainActor
func next(
    _ kind: ReportKind, _ status: SendingStatus, of requestId: String? = nil, in recorder: MessageCollectionRecorder
) async throws -> (Message, MessageContext) {
    let event = try await recorder.next { event in
        guard reportKind(of: event) == kind, event.context?.sendingStatus == status else { return false }
        return requestId.map { id in event.messages.contains { $0.clientRequestId == id } } ?? true
    }
    let message = try #require(event.messages.first { requestId == nil || $0.clientRequestId == requestId })
    return (message, try #require(event.context))
}

/// A client whose server refuses messages containing "spam" (reason "no spam here"), with a
/// started collection of "general" and its recorder.
@MainActor
func openChatRejectingSpam() async throws -> (ClientFixture, MessageCollection, MessageCollectionRecorder) {
    let fixture = try await ClientFixture()
    fixture.server.rejectMessages(containing: "spam", reason: "no spam here")
    let (collection, recorder, _) = try await openCollection(fixture.client)
    return (fixture, collection, recorder)
}

/// Sends a message the server's "spam" rule rejects, expects the send to throw the rejection,
/// and returns the failed message and its report's context.
@MainActor
func sendRejected(
    _ text: String, from client: SocialClient, in recorder: MessageCollectionRecorder
) async throws -> (Message, MessageContext) {
    await #expect(throws: SocialAPIError.rejected("no spam here")) {
        try await client.messages.send(text, to: "general")
    }
    return try await next(.updated, .failed, in: recorder)
}

/// Waits for reports until `condition` holds.
@MainActor
func waitUntil(_ recorder: MessageCollectionRecorder, _ condition: () -> Bool) async throws {
    while !condition() { _ = try await recorder.log.next() }
}

/// Waits until `outcome` holds the send's result.
@MainActor
func waitForOutcome(_ outcome: SendOutcome) async throws {
    while outcome.result == nil {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Waits until the client has applied the connection event that makes `isConnected` equal `connected`.
@MainActor
func waitForConnection(_ client: SocialClient, connected: Bool) async throws {
    while client.isConnected != connected {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Disconnects the server and waits until the client knows it is offline.
@MainActor
func goOffline(_ fixture: ClientFixture) async throws {
    try await waitForConnection(fixture.client, connected: true)
    fixture.server.disconnect()
    try await waitForConnection(fixture.client, connected: false)
}

/// The cached messages with `requestId` as their client request id: the pending or failed copy, or the server's.
@MainActor
func cachedCopies(of requestId: String, in client: SocialClient) async throws -> [Message] {
    try await client.store.read { connection in
        try Message.read(CacheQuery<Message>([.equals("clientRequestId", .text(requestId))], orderBy: "createdAt"),
                         from: connection)
    }
}

/// Waits for `rounds` round trips through `client`'s store queue.
@MainActor
func settle(_ client: SocialClient, rounds: Int = 4) async throws {
    for _ in 0..<rounds { _ = try await client.store.read { _ in 0 } }
}

/// How many cached messages have `id`.
@MainActor
func cachedCount(id: String, in client: SocialClient) async throws -> Int {
    try await client.store.read { try CacheTransactionFree.count(Message.self, id: id, in: $0) }
}

/// The server's messages in `channelId` with `requestId` as their client request id.
func serverCopies(
    of requestId: String, on server: EmbeddedServer, channelId: String = "general"
) async throws -> [Message] {
    try await server.records(.messages(channelId: channelId, newestFirst: false)).filter { $0.clientRequestId == requestId }
}
