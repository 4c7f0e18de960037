import LiveRepository

/// Sends the signed-in user's messages one at a time, in the order they were written, and keeps
/// each one's state in the cache so that nothing typed is lost and nothing is sent twice.
///
/// A message is first stored as pending (`syncing`, with `id == clientRequestId`). When the
/// server stores it, its copy replaces the pending one in one write. A transient failure
/// (offline, a server failure) leaves it pending and pauses the queue until the connection comes
/// back, when ``SocialClient/autoResendMessages`` is on; otherwise, and on a refusal, it becomes
/// failed (`error`). Pending messages left by an earlier run are read from the cache before the
/// first send, or on the first connection when automatic resending is on, and sent first. The server keeps one message per
/// client request id and sender, so a resend after a lost answer stores nothing new.
///
/// A server failure while the client does not know it is offline pauses the queue for a wait
/// from ``SocialClient/retryPolicy`` instead (a server can fail while its event stream
/// stays up, and then the connection never "comes back"); each failure in a row waits longer,
/// and a sent message or a reconnection starts the waits over. A reconnection, or
/// ``resume()``, ends a wait at once; the client's release cancels it.
@MainActor
final class MessageOutbox {
    /// The client that owns the outbox; work still running when it is released stops.
    private weak var owner: SocialClient?
    /// The pending messages waiting to be sent, oldest first; the first may be in flight.
    private var queue: [Message] = []
    /// The client request id of the message with the server now.
    private var inFlight: String?
    /// Set by a transient failure: nothing is sent until the connection comes back, the wait
    /// after a server failure ends (``retries``), or the user sends again.
    private var isPaused = false
    /// The waits after server failures in a row since the last sent message or reconnection;
    /// the end of one unpauses the queue.
    private let retries = RetrySchedule()
    /// The client request ids of messages that may have reached the server: sent at least once,
    /// or left pending by an earlier run. They can no longer be canceled.
    private var attempted: Set<String> = []
    /// The creation time of the newest pending message: each new one gets a later one.
    private var lastCreatedAt = -Double.infinity
    /// The pending messages whose copy is not written yet, in the order their sends were given.
    private var unstored: [Message] = []
    /// How many writes of each message's pending copy are queued in the store and not committed,
    /// by client request id: such a message is not sent yet.
    private var storing: [String: Int] = [:]
    private var cacheLoad: Task<Void, Never>?
    private var waiters: [String: [CheckedContinuation<Message, any Error>]] = [:]

    init(client: SocialClient) {
        owner = client
    }

    /// The owning client, or `CancellationError` once it was released.
    private var client: SocialClient {
        get throws {
            guard let owner else { throw CancellationError() }
            return owner
        }
    }

    /// Stores `message` as pending, queues it, and returns the server's copy once it is sent.
    ///
    /// - Throws: the error of the attempt when it fails (the message then stays pending for an
    ///   automatic resend, or is failed); ``ChatError/canceled(clientRequestId:)`` when the user
    ///   cancels it first; the cache's error when the pending copy could not be stored.
    func send(_ message: Message) async throws -> Message {
        var pending = message
        pending.syncState = .syncing
        // Lists of pending messages, and the resends after a restart, go by creation time: it
        // strictly increases from one send to the next even when the clock stands still or
        // goes back.
        pending.createdAt = max(message.createdAt, lastCreatedAt.nextUp)
        pending.updatedAt = max(message.updatedAt, pending.createdAt)
        lastCreatedAt = pending.createdAt
        let requestId = pending.clientRequestId
        return try await withCheckedThrowingContinuation { continuation in
            waiters[requestId, default: []].append(continuation)
            // Its place in the queue, and among the pending copies to write, is taken before
            // anything waits, so sends keep their order: the tasks waiting for the cache read
            // resume in no promised order (last first, in practice), and whichever comes first
            // writes every copy waiting, in order.
            queue.append(pending)
            unstored.append(pending)
            Task {
                await loadPendingFromCache()
                storeUnstored()
            }
        }
    }

    /// Makes a failed message pending again and sends it.
    func resend(_ message: Message) async throws -> Message {
        await loadPendingFromCache()
        let requestId = message.clientRequestId
        let stored = try await client.store.read { try Message.read(id: requestId, from: $0) }
        guard let stored, stored.sendingStatus == .failed else { throw ChatError.notFailed(clientRequestId: requestId) }
        var pending = stored
        pending.syncState = .syncing
        return try await withCheckedThrowingContinuation { continuation in
            waiters[requestId, default: []].append(continuation)
            if !queue.contains(where: { $0.clientRequestId == requestId }) { queue.append(pending) }
            unstored.append(pending)
            storeUnstored()
        }
    }

    /// Cancels a pending message the server has never been asked to store: it is removed from the
    /// cache and reported as canceled. Returns false when it may have reached the server (it is in
    /// flight, an attempt's answer was lost, or an earlier run left it), and when it is sent, failed
    /// or unknown.
    func cancel(_ message: Message) async -> Bool {
        await loadPendingFromCache()
        let requestId = message.clientRequestId
        guard !attempted.contains(requestId), let index = queue.firstIndex(where: { $0.clientRequestId == requestId }) else {
            return false
        }
        let pending = queue.remove(at: index)
        // Its pending copy, if not written yet, is written first: the removal comes after it.
        storeUnstored()
        owner?.enqueueCommit(
            ChatChange(removals: [SocialRecordKey(.message, pending.id)], canceled: [requestId], source: .local))
        finish(requestId, with: .failure(ChatError.canceled(clientRequestId: requestId)))
        return true
    }

    /// Removes failed messages from the cache; returns the client request ids removed.
    func removeFailed(_ messages: [Message]) async throws -> [String] {
        let requestIds = messages.map(\.clientRequestId)
        let failed = try await client.store.read { connection in
            try requestIds.compactMap { try Message.read(id: $0, from: connection) }.filter { $0.sendingStatus == .failed }
        }
        guard !failed.isEmpty else { return [] }
        try await client.commit(ChatChange(removals: failed.map { SocialRecordKey(.message, $0.id) }, source: .local))
        return failed.map(\.clientRequestId)
    }

    /// Sends what is pending again: after a reconnection, or when asked. Ends the wait after a
    /// server failure, and starts the waits over. Returns the work that reads the cache's pending
    /// messages, if it has not yet, then sends.
    @discardableResult
    func resume() -> Task<Void, Never> {
        unpause()
        retries.reset()
        return Task {
            await loadPendingFromCache()
            pump()
        }
    }

    /// The pending messages in the queue, oldest first; for tests and diagnostics.
    var queuedRequestIds: [String] { queue.map(\.clientRequestId) }
    /// The message with the server now; for tests and diagnostics.
    var inFlightRequestId: String? { inFlight }
    /// The messages whose pending copy is being written; for tests and diagnostics.
    var storingRequestIds: Set<String> { Set(storing.keys) }

    // MARK: Sending

    /// Writes the pending copies not written yet, in the order their sends were given (the store
    /// runs writes in order, so they are stored and shown in that order); each written copy
    /// starts the queue. Each message is queued before its copy is written, so that it can be
    /// canceled as soon as anyone sees it; ``pump()`` does not send it before its copy is
    /// committed, so that the copy's commit is what sends it first (a commit after the first
    /// send had begun would end the wait of a failed send at once). Called once the cache's
    /// pending messages were read.
    private func storeUnstored() {
        let batch = unstored
        unstored = []
        for pending in batch {
            let requestId = pending.clientRequestId
            guard let client = owner else {
                queue.removeAll { $0.clientRequestId == requestId }
                finish(requestId, with: .failure(CancellationError()))
                continue
            }
            storing[requestId, default: 0] += 1
            client.enqueueCommit(ChatChange(upserts: [.message(pending)], source: .local)) { [weak client, self] error in
                storing[requestId, default: 1] -= 1
                if storing[requestId] == 0 { storing[requestId] = nil }
                if let error {
                    queue.removeAll { $0.clientRequestId == requestId }
                    finish(requestId, with: .failure(error))
                    return
                }
                // Canceled, or already sent, meanwhile.
                guard let queued = queue.first(where: { $0.clientRequestId == requestId }) else { return }
                unpause()
                if client?.isKnownOffline ?? true {
                    // Not attempted: the connection is known to be down.
                    fail(queued, with: SocialAPIError.offline)
                } else {
                    pump()
                }
            }
        }
    }

    /// Reads the user's pending messages an earlier run left in the cache, once, and queues them
    /// ahead of anything new.
    private func loadPendingFromCache() async {
        if cacheLoad == nil, let client = owner {
            let userId = client.userId
            cacheLoad = Task {
                let stored = (try? await client.store.read { try Message.local(of: userId, in: nil, from: $0) }) ?? []
                let pending = stored.filter { $0.sendingStatus == .pending }
                lastCreatedAt = max(lastCreatedAt, pending.map(\.createdAt).max() ?? -.infinity)
                attempted.formUnion(pending.map(\.clientRequestId))
                let queued = Set(queue.map(\.clientRequestId))
                queue.insert(contentsOf: pending.filter { !queued.contains($0.clientRequestId) }, at: 0)
            }
        }
        await cacheLoad?.value
    }

    private func pump() {
        guard inFlight == nil, !isPaused, let client = owner, !client.isKnownOffline, let next = queue.first else { return }
        // Not before its pending copy is committed: the commit of its copy pumps again.
        guard storing[next.clientRequestId] == nil, !unstored.contains(where: { $0.clientRequestId == next.clientRequestId }) else {
            return
        }
        inFlight = next.clientRequestId
        attempted.insert(next.clientRequestId)
        Task { await deliver(next) }
    }

    private func deliver(_ message: Message) async {
        let requestId = message.clientRequestId
        let mutation = SocialMutation.sendMessage(
            channelId: message.channelId, clientRequestId: requestId, type: message.type, text: message.text,
            parentId: message.parentId, metaArrays: message.metaArrays)
        do {
            let result = try await client.api.perform(mutation)
            // The server's copy replaces the pending one in the same write.
            try await client.commit(ChatChange(upserts: result.records, source: .local))
            queue.removeAll { $0.clientRequestId == requestId }
            inFlight = nil
            retries.reset()
            finish(requestId, with: .success(result.first(Message.self) ?? message))
        } catch {
            inFlight = nil
            fail(message, with: error)
        }
        pump()
    }

    /// Handles a send that did not happen: a transient failure leaves the message pending and
    /// pauses the queue (with automatic resending on), until the connection comes back, or for
    /// the retry's wait after a server failure while not known to be offline; anything else
    /// makes it failed.
    private func fail(_ message: Message, with error: any Error) {
        let requestId = message.clientRequestId
        let transient = (error as? SocialAPIError)?.isTransient ?? false
        guard transient, let client = owner, client.autoResendMessages else {
            queue.removeAll { $0.clientRequestId == requestId }
            Task {
                await markFailed(message)
                finish(requestId, with: .failure(error))
            }
            return
        }
        // Stays pending and queued, and so do the messages behind it, and their senders hear the
        // same error now. After an offline failure all are sent again when the connection comes
        // back; if it came back while this attempt was under way, the queue goes on at once.
        // After a server failure the server was reached: unless the connection is known to have
        // dropped since, the queue goes on after a wait, as no reconnection may ever come.
        if (error as? SocialAPIError) == .offline {
            isPaused = !client.isConnected
        } else {
            isPaused = true
            if !client.isKnownOffline { startRetryTimer(client.retryPolicy) }
        }
        for queued in queue { finish(queued.clientRequestId, with: .failure(error)) }
    }

    /// Unpauses the queue after the wait of the next retry; a wait already running is replaced.
    private func startRetryTimer(_ policy: RetryPolicy) {
        retries.schedule(policy) { [weak self] in
            self?.isPaused = false
            self?.pump()
        }
    }

    /// Lets the queue send again, ending the wait after a server failure if one is running.
    private func unpause() {
        retries.cancel()
        isPaused = false
    }

    /// Stores a message as failed, unless its pending copy is gone meanwhile (the server's copy
    /// arrived by a real-time event although the answer was lost, or the user removed it).
    private func markFailed(_ message: Message) async {
        guard let client = owner else { return }
        var copy = message
        copy.syncState = .error
        let failed = copy
        _ = try? await client.write { transaction -> (Void, ChatChange?) in
            guard try transaction.record(Message.self, id: failed.id) != nil else { return ((), nil) }
            try transaction.upsert(failed)
            return ((), ChatChange(upserts: [.message(failed)], source: .local))
        }
    }

    private func finish(_ requestId: String, with outcome: Result<Message, any Error>) {
        for waiter in waiters.removeValue(forKey: requestId) ?? [] { waiter.resume(with: outcome) }
    }
}
