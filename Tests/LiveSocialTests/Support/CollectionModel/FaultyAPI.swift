import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// A `SocialAPI` between a client and an `EmbeddedServer` connection that lets a test decide
/// what reaches the client: it forwards every request, but keeps the server's real-time events
/// in ``incoming`` until the test delivers, duplicates, holds or drops them, makes page requests
/// wait until ``releaseFetch()``, fails the fetches and mutations it is told to, and logs the
/// answers it passed on, so a model can follow what the client was told.
final class FaultyAPI: SocialAPI {
    /// A page answer (or failure) the client got.
    struct Page: Sendable {
        var cursor: String?
        var records: [SocialRecord]
        var nextCursor: String?
        var failed: Bool
    }

    private struct State {
        var incoming: [SocialEvent] = []
        var latestIncoming: Int64 = 0
        var client: AsyncStream<SocialEvent>.Continuation?
        var connected = true
        var fetchFailures = 0
        var performFailure: SocialAPIError?
        var waitingFetches: [CheckedContinuation<Void, Never>] = []
        var gatesFetches: Bool
        var pages: [Page] = []
        var incomingWaiters: [(sequence: Int64, continuation: CheckedContinuation<Void, Never>)] = []
        var results: [SocialMutationResult] = []
    }

    let base: EmbeddedServer.Connection
    private let state: Locked<State>
    private let pump: Locked<Task<Void, Never>?> = Locked(nil)
    /// Holds a served page answer (``holdNextAnswer(_:)``).
    private let answerHold = AnswerHold()

    /// Wraps `base`; `gatesFetches` makes every page request wait for ``releaseFetch()``.
    init(base: EmbeddedServer.Connection, gatesFetches: Bool = true) {
        self.base = base
        state = Locked(State(gatesFetches: gatesFetches))
        let stream = base.events()
        let task = Task { [weak self] in
            for await event in stream { self?.receive(event) }
        }
        pump.withLock { $0 = task }
    }

    private func receive(_ event: SocialEvent) {
        guard let sequence = event.sequence else { return }
        let ready = state.withLock { state in
            state.incoming.append(event)
            state.latestIncoming = max(state.latestIncoming, sequence)
            let latest = state.latestIncoming
            defer { state.incomingWaiters.removeAll { $0.sequence <= latest } }
            return state.incomingWaiters.filter { $0.sequence <= latest }.map(\.continuation)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once the server's events through `sequence` have arrived.
    func waitForIncoming(through sequence: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state in
                guard state.latestIncoming < sequence else { return true }
                state.incomingWaiters.append((sequence, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Stops listening to the server and ends the client's stream.
    func close() {
        pump.withLock { $0?.cancel() }
        let client = state.withLock { $0.client }
        client?.finish()
        releaseAllFetches()
    }

    // MARK: Controls

    /// The server's change events not handed to the client yet, taken out.
    func takeIncoming() -> [SocialEvent] {
        state.withLock { state in
            defer { state.incoming = [] }
            return state.incoming
        }
    }

    /// The sequence number of the latest change event received from the server.
    var latestIncoming: Int64 { state.withLock { $0.latestIncoming } }

    /// Hands `event` to the client's real-time stream.
    func deliver(_ event: SocialEvent) {
        let client = state.withLock { $0.client }
        client?.yield(event)
    }

    /// Sets the connection state the client sees; while down, every request throws `.offline`.
    func setConnected(_ connected: Bool) {
        let client = state.withLock { state -> AsyncStream<SocialEvent>.Continuation? in
            state.connected = connected
            return state.client
        }
        client?.yield(connected ? .connected : .disconnected)
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    /// Makes the next `count` page requests fail with a server failure.
    func failNextFetches(_ count: Int) { state.withLock { $0.fetchFailures = count } }

    /// Makes the next mutation fail with `error` without reaching the server.
    func failNextPerform(_ error: SocialAPIError?) { state.withLock { $0.performFailure = error } }

    /// How many page requests wait for ``releaseFetch()``.
    var waitingFetchCount: Int { state.withLock { $0.waitingFetches.count } }

    /// Lets the oldest waiting page request go to the server.
    func releaseFetch() {
        let waiter = state.withLock { $0.waitingFetches.isEmpty ? nil : $0.waitingFetches.removeFirst() }
        waiter?.resume()
    }

    /// Makes the next page answer wait, once the server has served it, for ``releaseAnswer()``:
    /// changes made meanwhile are newer than the page.
    func holdNextAnswer(_ holds: Bool = true) { answerHold.arm(holds) }

    /// Whether a served page waits for ``releaseAnswer()``.
    var hasHeldAnswer: Bool { answerHold.isHolding }

    /// Hands the held page answer to the client.
    func releaseAnswer() { answerHold.release() }

    private func releaseAllFetches() {
        let waiters = state.withLock { state in
            state.gatesFetches = false
            defer { state.waitingFetches = []; state.incomingWaiters = [] }
            return state.waitingFetches + state.incomingWaiters.map(\.continuation)
        }
        answerHold.releaseAll()
        for waiter in waiters { waiter.resume() }
    }

    /// The page answers passed on since the last call, in order.
    func takePages() -> [Page] {
        state.withLock { state in
            defer { state.pages = [] }
            return state.pages
        }
    }

    /// The mutation answers passed on since the last call, in order.
    func takeResults() -> [SocialMutationResult] {
        state.withLock { state in
            defer { state.results = [] }
            return state.results
        }
    }

    // MARK: SocialAPI

    func fetch<Record: CacheRecord>(_ type: Record.Type, id: String) async throws -> Record? {
        try checkConnected()
        return try await base.fetch(type, id: id)
    }

    func fetchPage<Record: CacheRecord>(_ query: SocialQuery<Record>, cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let gated = state.withLock { state in
                if state.gatesFetches { state.waitingFetches.append(continuation) }
                return state.gatesFetches
            }
            if !gated { continuation.resume() }
        }
        let failure: SocialAPIError? = state.withLock { state in
            // A planned failure is used up by the next request, offline or not.
            let planned = state.fetchFailures > 0
            if planned { state.fetchFailures -= 1 }
            if !state.connected { return .offline }
            return planned ? .serverFailure("injected page failure") : nil
        }
        if let failure {
            state.withLock { $0.pages.append(Page(cursor: cursor, records: [], nextCursor: nil, failed: true)) }
            throw failure
        }
        let page = try await base.fetchPage(query, cursor: cursor, limit: limit)
        state.withLock {
            $0.pages.append(Page(cursor: cursor, records: page.records.compactMap { SocialRecord($0) },
                                 nextCursor: page.nextCursor, failed: false))
        }
        await answerHold.pass()
        return page
    }

    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        try checkConnected()
        return try await base.fetchMessages(query, after: position, limit: limit)
    }

    func changes(since sequence: Int64, limit: Int, scope: ChangeScope) async throws -> ChangeLog {
        try checkConnected()
        return try await base.changes(since: sequence, limit: limit, scope: scope)
    }

    func latestSequence() async throws -> Int64 {
        try checkConnected()
        return try await base.latestSequence()
    }

    @discardableResult
    func perform(_ mutation: SocialMutation) async throws -> SocialMutationResult {
        let failure: SocialAPIError? = state.withLock { state in
            if !state.connected { return .offline }
            defer { state.performFailure = nil }
            return state.performFailure
        }
        if let failure { throw failure }
        let result = try await base.perform(mutation)
        state.withLock { $0.results.append(result) }
        return result
    }

    func events() -> AsyncStream<SocialEvent> {
        let (stream, continuation) = AsyncStream<SocialEvent>.makeStream()
        let connected = state.withLock { state in
            state.client?.finish()
            state.client = continuation
            return state.connected
        }
        continuation.yield(connected ? .connected : .disconnected)
        return stream
    }

    private func checkConnected() throws {
        if !state.withLock({ $0.connected }) { throw SocialAPIError.offline }
    }
}
