import LiveRepository

/// The remote backend of the social domain: implement it to plug in your own server.
///
/// One value serves one signed-in user: mutations are made as that user. Every method may
/// throw ``SocialAPIError``; `.offline` and `.serverFailure` are worth retrying.
///
/// A client starts a list with ``fetchPage(_:cursor:limit:)`` (a chat view with
/// ``fetchMessages(_:after:limit:)`` around a point in time), stays fresh with ``events()``,
/// and after a disconnection catches up with ``changes(since:limit:scope:)`` from the latest
/// sequence number it applied: ``SocialClient`` does so over every kind when real time reports
/// ``SocialEvent/connected`` again; a chat view asks only for its channel's messages (take its
/// first point from ``latestSequence()`` before loading), the channel list only for channels.
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

    /// The messages of `query` that come after `position` in its order, at most `limit`: the
    /// page a chat view opens at or pages to (see ``MessagePosition``).
    ///
    /// A newest-first query returns older messages, newest first; an oldest-first query returns
    /// newer ones, oldest first.
    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message]

    /// The creates, updates and deletes in `scope` after server sequence number `since`, at most
    /// `limit` changes.
    ///
    /// When ``ChangeLog/hasMore`` is true, ask again from ``ChangeLog/latestSequence``. Sequence
    /// numbers are server-wide, so a scoped log skips the numbers of changes outside its scope.
    func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog

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

extension SocialAPI {
    /// Every create, update and delete after server sequence number `since`, at most `limit`
    /// changes: ``changes(since:limit:scope:)`` over ``ChangeScope/all``.
    public func changes(since sequence: Int64, limit: Int) async throws -> ChangeLog {
        try await changes(since: sequence, limit: limit, scope: .all)
    }
}
