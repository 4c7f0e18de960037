import LiveRepository
import LiveSocial

/// A backend whose real-time stream has said nothing yet, not even the connection state, as for
/// a moment after ``SocialClient/startRealtime()``: every request goes to `base`.
struct EventlessAPI: SocialAPI {
    let base: any SocialAPI

    func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
        try await base.fetch(type, id: id)
    }

    func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        try await base.fetchPage(query, cursor: cursor, limit: limit)
    }

    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        try await base.fetchMessages(query, after: position, limit: limit)
    }

    func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
        try await base.changes(since: sequence, limit: limit, scope: scope)
    }

    func latestSequence() async throws -> Int64 { try await base.latestSequence() }

    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult { try await base.perform(mutation) }

    /// A stream that never yields and never ends.
    func events() -> AsyncStream<SocialEvent> { AsyncStream { _ in } }
}
