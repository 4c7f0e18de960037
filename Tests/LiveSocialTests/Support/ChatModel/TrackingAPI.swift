import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// The embedded server's API as a client sees it, counting the requests under way: the chat
/// model check waits until none is, so that it compares states only once everything settled.
final class TrackingAPI: ForwardingAPI {
    private struct Counts {
        var inFlight = 0
        var started = 0
    }

    let base: EmbeddedServer.Connection
    private let counts = Locked(Counts())

    init(base: EmbeddedServer.Connection) {
        self.base = base
    }

    /// How many requests are waiting for the server now.
    var inFlight: Int { counts.withLock { $0.inFlight } }
    /// How many requests were made so far.
    var started: Int { counts.withLock { $0.started } }

    private func track<T>(_ body: () async throws -> T) async throws -> T {
        counts.withLock {
            $0.inFlight += 1
            $0.started += 1
        }
        defer { counts.withLock { $0.inFlight -= 1 } }
        return try await body()
    }

    func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
        try await track { try await base.fetch(type, id: id) }
    }

    func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        try await track { try await base.fetchPage(query, cursor: cursor, limit: limit) }
    }

    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        try await track { try await base.fetchMessages(query, after: position, limit: limit) }
    }

    func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
        try await track { try await base.changes(since: sequence, limit: limit, scope: scope) }
    }

    func latestSequence() async throws -> Int64 {
        try await track { try await base.latestSequence() }
    }

    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
        try await track { try await base.perform(mutation) }
    }
}
