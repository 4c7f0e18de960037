import LiveRepository

/// The remote backend of the social domain: implement it to plug in your own server.
///
/// One value serves one signed-in user: mutations are made as that user. Every method may
/// throw ``SocialAPIError``; `.offline` and `.serverFailure` are worth retrying.
///
/// A client starts a list with ``fetchPage(_:cursor:limit:)``, stays fresh with ``events()``,
/// and after a disconnection catches up with ``changes(since:limit:)`` from the latest
/// sequence number it applied (take the first one from ``latestSequence()`` before loading).
public protocol SocialAPI: Sendable {
    /// The server's copy of one record, or nil when it does not exist on the server.
    func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record?

    /// One page of a list, in the query's order.
    ///
    /// - Parameters:
    ///   - query: the list to read: which records, in which order.
    ///   - cursor: nil for the first page, else the previous page's `nextCursor`.
    ///   - limit: the most records to return; a page may hold fewer.
    /// - Returns: the records; `nextCursor` is nil on the last page.
    func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record>

    /// Every create, update and delete after server sequence number `since`, at most `limit` changes.
    ///
    /// When ``ChangeLog/hasMore`` is true, ask again from ``ChangeLog/latestSequence``.
    func changes(since sequence: Int64, limit: Int) async throws -> ChangeLog

    /// The server's latest sequence number: the point a fresh load is up to date with.
    func latestSequence() async throws -> Int64

    /// Applies a change as the signed-in user and returns the server's version of what changed.
    @discardableResult
    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult

    /// The server's real-time events, in order, from now on.
    ///
    /// The stream starts with the current connection state (``SocialEvent/connected`` or
    /// ``SocialEvent/disconnected``). Each call makes a new stream; stop iterating (or cancel
    /// the iterating task) to unsubscribe.
    func events() -> AsyncStream<SocialEvent>
}
