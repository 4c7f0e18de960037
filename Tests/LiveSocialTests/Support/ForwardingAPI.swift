import LiveRepository
import LiveSocial

/// A test's wrapper around another API: each request the wrapper does not declare itself goes to
/// ``base`` unchanged, so a wrapper writes only the requests it gates, fails or records.
protocol ForwardingAPI: SocialAPI {
    associatedtype Base: SocialAPI
    /// The API the requests go to.
    var base: Base { get }
}

extension ForwardingAPI {
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

    func events() -> AsyncStream<SocialEvent> { base.events() }
}
