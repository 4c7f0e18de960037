import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// A backend whose real-time stream the test drives (``send(_:)``), and whose client-wide change
/// log (``ChangeScope/all``) the test can hold once the server has answered, or fail: so a test
/// decides what happens while a client catches up. The change logs of chat collections (every
/// other scope) can be failed too. A mutation's answer can be held too, and
/// then lost (``releasePerform(losingAnswer:)``), and so can a page of records (a channel list's
/// page, say) the server has answered. Everything else goes to `base`; while the
/// test has sent ``SocialEvent/disconnected``, requests throw ``SocialAPIError/offline``.
final class CatchUpGateAPI: SocialAPI {
    private struct State {
        var stream: AsyncStream<SocialEvent>.Continuation?
        var connected = true
        var logFailures = 0
        var logRequests = 0
        var collectionLogFailures = 0
        var collectionLogRequests = 0
    }

    let base: EmbeddedServer.Connection
    private let state = Locked(State())
    private let logHold = AnswerHold()
    /// Released with whether the answer is lost.
    private let performHold = AnswerHold(passing: false)
    private let pageHold = AnswerHold()

    init(base: EmbeddedServer.Connection) {
        self.base = base
    }

    // MARK: Controls

    /// Hands `event` to the client's real-time stream; a connection event also switches whether
    /// requests are served.
    func send(_ event: SocialEvent) {
        let stream = state.withLock { state in
            if event == .connected { state.connected = true }
            if event == .disconnected { state.connected = false }
            return state.stream
        }
        stream?.yield(event)
    }

    /// Makes the next client-wide change log wait, once the server has answered, for ``releaseLog()``.
    func holdNextLog() { logHold.arm() }

    /// Whether a client-wide change log the server answered waits for ``releaseLog()``.
    var hasHeldLog: Bool { logHold.isHolding }

    /// Hands the held change log to the client.
    func releaseLog() { logHold.release() }

    /// Makes the next `count` client-wide change-log requests fail with a server failure.
    func failNextLogs(_ count: Int) { state.withLock { $0.logFailures = count } }

    /// How many client-wide change logs were asked for.
    var logRequests: Int { state.withLock { $0.logRequests } }

    /// Makes the next `count` change-log requests of chat collections (any scope but
    /// ``ChangeScope/all``) fail with a server failure.
    func failNextCollectionLogs(_ count: Int) { state.withLock { $0.collectionLogFailures = count } }

    /// How many change logs chat collections asked for.
    var collectionLogRequests: Int { state.withLock { $0.collectionLogRequests } }

    /// Makes the next mutation wait, once the server has made it, for ``releasePerform(losingAnswer:)``.
    func holdNextPerform() { performHold.arm() }

    /// Whether a mutation the server made waits for ``releasePerform(losingAnswer:)``.
    var hasHeldPerform: Bool { performHold.isHolding }

    /// Answers the held mutation, or makes its answer lost (the client gets `.offline`).
    func releasePerform(losingAnswer: Bool) { performHold.release(losingAnswer) }

    /// Makes the next page of records wait, once the server has answered it, for ``releasePage()``.
    func holdNextPage() { pageHold.arm() }

    /// Whether a page of records the server answered waits for ``releasePage()``.
    var hasHeldPage: Bool { pageHold.isHolding }

    /// Hands the held page to the client.
    func releasePage() { pageHold.release() }

    // MARK: SocialAPI

    func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
        try checkConnected()
        return try await base.fetch(type, id: id)
    }

    func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        try checkConnected()
        let page = try await base.fetchPage(query, cursor: cursor, limit: limit)
        await pageHold.pass()
        return page
    }

    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        try checkConnected()
        return try await base.fetchMessages(query, after: position, limit: limit)
    }

    func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
        try checkConnected()
        guard scope == .all else {
            let fails = state.withLock { state in
                state.collectionLogRequests += 1
                defer { state.collectionLogFailures = max(0, state.collectionLogFailures - 1) }
                return state.collectionLogFailures > 0
            }
            if fails { throw SocialAPIError.serverFailure("a collection's change log failed by the test") }
            return try await base.changes(since: sequence, limit: limit, scope: scope)
        }
        let fails = state.withLock { state in
            state.logRequests += 1
            defer { state.logFailures = max(0, state.logFailures - 1) }
            return state.logFailures > 0
        }
        if fails { throw SocialAPIError.serverFailure("change log failed by the test") }
        let log = try await base.changes(since: sequence, limit: limit, scope: scope)
        await logHold.pass()
        return log
    }

    func latestSequence() async throws -> Int64 {
        try checkConnected()
        return try await base.latestSequence()
    }

    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
        try checkConnected()
        let result = try await base.perform(mutation)
        if await performHold.pass() { throw SocialAPIError.offline }
        return result
    }

    /// The test's stream, starting with the connection state.
    func events() -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream<SocialEvent>.makeStream()
        let connected = state.withLock { state in
            state.stream?.finish()
            state.stream = continuation
            return state.connected
        }
        continuation.yield(connected ? .connected : .disconnected)
        return stream
    }

    private func checkConnected() throws {
        if !state.withLock({ $0.connected }) { throw SocialAPIError.offline }
    }
}
