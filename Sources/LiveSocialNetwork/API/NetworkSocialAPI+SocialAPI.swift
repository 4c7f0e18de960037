import Foundation
import LiveRepository
import LiveSocial
import LiveSocialWire

extension NetworkSocialAPI: SocialAPI {
    /// The server's copy of one record (`GET /v1/records/{kind}/{id}`); nil when it does not
    /// exist or the user may not see it.
    public func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
        guard let kind = SocialRecordKind(of: type) else {
            throw SocialAPIError.invalidRequest("\(type) is not a record of the social domain")
        }
        let body = try await requester.get(WireRoute.record(kind, id: id), as: RecordBody.self)
        guard let record = body.record else { return nil }
        guard let value = record.record(as: type) else {
            throw SocialAPIError.serverFailure("the server answered a \(kind.rawValue) fetch with a \(record.kind.rawValue)")
        }
        return value
    }

    /// One page of a list (`POST /v1/pages`).
    public func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        let body = try await requester.post(
            WireRoute.pages, json: PageRequest(query: query.kind, cursor: cursor, limit: limit), as: PageBody.self)
        do {
            return try body.page(of: Record.self)
        } catch {
            throw SocialAPIError.serverFailure("the server's page could not be read: \(error.message)")
        }
    }

    /// The messages after a position (`POST /v1/messages`).
    public func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        try await requester.post(
            WireRoute.messages, json: MessagesRequest(query: query.kind, after: position, limit: limit), as: MessagesBody.self
        ).messages
    }

    /// The changes after a sequence number (`GET /v1/changes`).
    public func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
        try await requester.get(
            WireRoute.changes, query: ChangesRequest(since: sequence, limit: limit, scope: scope).queryItems, as: Wire<ChangeLog>.self
        ).value
    }

    /// The server's latest sequence number (`GET /v1/sequence`).
    public func latestSequence() async throws -> Int64 {
        try await requester.get(WireRoute.sequence, as: SequenceBody.self).latestSequence
    }

    /// Applies a change (`POST /v1/mutations`) with an idempotency key: the message's client
    /// request id for a send, else a UUID made for this call. A try whose answer was lost is
    /// sent again with the same key, so the server stores the change once.
    @discardableResult
    public func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
        let key = mutation.clientRequestId ?? UUID().uuidString
        return try await requester.post(
            WireRoute.mutations, json: MutationRequest(mutation: mutation), as: Wire<SocialMutationResult>.self, idempotencyKey: key,
            target: mutation.targetKey
        ).value
    }

    /// The real-time events from now on: ``LiveSocial/SocialEvent/connected`` or
    /// ``LiveSocial/SocialEvent/disconnected`` first, then every change and every change of the
    /// connection. The stream ends when the session does.
    public func events() -> AsyncStream<SocialEvent> {
        broadcaster.subscribe()
    }
}
