import LiveRepository
import LiveSocial

extension EmbeddedServer {
    /// A client's connection to an ``EmbeddedServer``, signed in as one user.
    ///
    /// It is the app's `SocialAPI`: every request waits for the server's latency,
    /// fails when the server is disconnected or told to fail, and mutations are made as
    /// ``userId``. Connections are cheap values; make one per signed-in user.
    ///
    /// Every read, change log and event stream is ``userId``'s: it holds only what that user may
    /// see, and mutations are checked against what they may do (see <doc:Authorization>).
    /// A network server makes one per request, for the user of the request's session token.
    public struct Connection: SocialAPI {
        /// The server this connection talks to.
        public let server: EmbeddedServer
        /// The signed-in user.
        public let userId: String

        /// The server's copy of a record, or nil when it does not exist or ``userId`` may not know
        /// it exists (a private channel's, when not a member).
        ///
        /// - Throws: `SocialAPIError.rejected(_:)` for a message of a public channel ``userId``
        ///   is not a member of.
        public func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
            try await server.serveFetch(type, id: id, as: userId)
        }

        /// One page of a query's results, with keyset paging, leaving out what ``userId`` may not see.
        ///
        /// - Throws: for a channel's messages (or members) that ``userId`` may not read,
        ///   `SocialAPIError.notFound(_:)` or `.rejected(_:)` (see <doc:Authorization>).
        public func fetchPage<Record: CacheRecord>(
            _ query: SocialQuery<Record>, cursor: String?, limit: Int
        ) async throws -> RemotePage<Record> {
            try await server.servePage(query, cursor: cursor, limit: limit, as: userId)
        }

        /// The messages after a position in a query's order.
        public func fetchMessages(
            _ query: SocialQuery<Message>, after position: MessagePosition, limit: Int
        ) async throws -> [Message] {
            try await server.serveMessages(query, after: position, limit: limit, as: userId)
        }

        /// The changes in a scope after a sequence number that ``userId`` may see.
        public func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
            try await server.serveChanges(since: sequence, limit: limit, scope: scope, as: userId)
        }

        /// The server's latest sequence number.
        public func latestSequence() async throws -> Int64 {
            try await server.serveLatestSequence()
        }

        /// Applies a mutation as ``userId``.
        @discardableResult
        public func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
            try await server.servePerform(mutation, as: userId)
        }

        /// Applies a mutation as ``userId`` once per idempotency key: a repeat of `key` by this
        /// user returns the first answer and changes nothing.
        ///
        /// The answer (the result as `encode` writes it, e.g. its JSON) is stored in the same
        /// transaction as the mutation's changes, so that they are kept together or not at all;
        /// answers are kept for a day. A refused mutation stores nothing.
        public func perform(
            _ mutation: SocialMutation, idempotencyKey key: String,
            encode: @Sendable (SocialMutationResult) throws -> [UInt8]
        ) async throws -> [UInt8] {
            try await server.servePerform(mutation, as: userId, idempotencyKey: key, encode: encode)
        }

        /// The server's real-time events that ``userId`` may see, from now on, starting with the
        /// connection state.
        public func events() -> AsyncStream<SocialEvent> {
            server.hub.subscribe(userId: userId)
        }
    }
}
