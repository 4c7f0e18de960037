import LiveRepository

/// Sends the signed-in user's messages one at a time, in the order they were written, and keeps
/// each one's state in the cache so that nothing typed is lost and nothing is sent twice.
///
/// A message is first stored as pending (`syncing`, with `id == clientRequestId`). When the
/// server stores it, its copy replaces the pending one in one write. A transient failure
/// (offline, a server failure) leaves it pending and pauses the queue until the connection comes
/// back, when ``SocialClient/autoResendMessages`` is on; otherwise, and on a refusal, it becomes
/// failed (`error`). Pending messages left by an earlier run are read from the cache before the
/// first send or on the first connection, and sent first. The server keeps one message per
/// client request id and sender, so a resend after a lost answer stores nothing new.
@MainActor
final class MessageOutbox {
    private unowned let client: SocialClient
    /// The pending messages waiting to be sent, oldest first; the first may be in flight.
    private var queue: [Message] = []
    /// The client request id of the message with the server now.
    private var inFlight: String?
    /// Set by a transient failure: nothing is sent until the connection comes back or the user sends again.
    private var isPaused = false
    private var cacheLoad: Task<Void, Never>?
    private var waiters: [String: [CheckedContinuation<Message, any Error>]] = [:]

    init(client: SocialClient) {
        self.client = client
    }

    /// Stores `message` as pending, queues it, and returns the server's copy once it is sent.
    ///
    /// - Throws: the error of the attempt when it fails (the message then stays pending for an
    ///   automatic resend, or is failed); ``ChatError/canceled(clientRequestId:)`` when the user
    ///   cancels it first; the cache's error when the pending copy could not be stored.
    func send(_ message: Message) async throws -> Message {
        await loadPendingFromCache()
        var pending = message
        pending.syncState = .syncing
        try await client.commit(ChatChange(upserts: [.message(pending)], source: .local))
        isPaused = false
        return try await enqueue(pending)
    }

    /// Makes a failed message pending again and sends it.
    func resend(_ message: Message) async throws -> Message {
        await loadPendingFromCache()
        let requestId = message.clientRequestId
        let stored = try await client.store.read { try Message.read(id: requestId, from: $0) }
        guard let stored, stored.sendingStatus == .failed else { throw ChatError.notFailed(clientRequestId: requestId) }
        var pending = stored
        pending.syncState = .syncing
        try await client.commit(ChatChange(upserts: [.message(pending)], source: .local))
        isPaused = false
        return try await enqueue(pending)
    }

    /// Cancels a pending message that is not with the server yet: it is removed from the cache and
    /// reported as canceled. Returns false when it is in flight, sent, failed or unknown.
    func cancel(_ message: Message) async -> Bool {
        await loadPendingFromCache()
        let requestId = message.clientRequestId
        guard inFlight != requestId, let index = queue.firstIndex(where: { $0.clientRequestId == requestId }) else {
            return false
        }
        let pending = queue.remove(at: index)
        client.enqueueCommit(
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

    /// Sends what is pending again: after a reconnection, or when asked.
    func resume() {
        isPaused = false
        Task {
            await loadPendingFromCache()
            pump()
        }
    }

    /// The pending messages in the queue, oldest first; for tests and diagnostics.
    var queuedRequestIds: [String] { queue.map(\.clientRequestId) }

    // MARK: Sending

    private func enqueue(_ pending: Message) async throws -> Message {
        try await withCheckedThrowingContinuation { continuation in
            waiters[pending.clientRequestId, default: []].append(continuation)
            if !queue.contains(where: { $0.clientRequestId == pending.clientRequestId }) { queue.append(pending) }
            pump()
        }
    }

    /// Reads the user's pending messages an earlier run left in the cache, once, and queues them
    /// ahead of anything new.
    private func loadPendingFromCache() async {
        if cacheLoad == nil {
            let query = CacheQuery<Message>(
                [.equals("userId", .text(client.userId)), .equals("syncState", .text(SyncState.syncing.rawValue))],
                orderBy: "createdAt")
            cacheLoad = Task {
                let stored = (try? await client.store.read { try Message.read(query, from: $0) }) ?? []
                let pending = stored.filter(\.isPending)
                let queued = Set(queue.map(\.clientRequestId))
                queue.insert(contentsOf: pending.filter { !queued.contains($0.clientRequestId) }, at: 0)
            }
        }
        await cacheLoad?.value
    }

    private func pump() {
        guard inFlight == nil, !isPaused, !client.isKnownOffline, let next = queue.first else { return }
        inFlight = next.clientRequestId
        Task { await deliver(next) }
    }

    private func deliver(_ message: Message) async {
        let requestId = message.clientRequestId
        let mutation = SocialMutation.sendMessage(
            channelId: message.channelId, clientRequestId: requestId, type: message.type, text: message.text,
            parentId: message.parentId, metaArrays: message.metaArrays)
        var outcome: Result<Message, any Error>
        do {
            let result = try await client.api.perform(mutation)
            // The server's copy replaces the pending one in the same write.
            try await client.commit(ChatChange(upserts: result.records, source: .local))
            outcome = .success(result.first(Message.self) ?? message)
            queue.removeAll { $0.clientRequestId == requestId }
        } catch {
            outcome = .failure(error)
            let transient = (error as? SocialAPIError)?.isTransient ?? false
            if transient, client.autoResendMessages {
                // Stays pending and queued; sent again when the connection comes back.
                isPaused = true
            } else {
                queue.removeAll { $0.clientRequestId == requestId }
                var failed = message
                failed.syncState = .error
                try? await client.commit(ChatChange(upserts: [.message(failed)], source: .local))
            }
        }
        inFlight = nil
        finish(requestId, with: outcome)
        pump()
    }

    private func finish(_ requestId: String, with outcome: Result<Message, any Error>) {
        for waiter in waiters.removeValue(forKey: requestId) ?? [] { waiter.resume(with: outcome) }
    }
}
