import LiveData
import LiveRepository

/// A chat listener held weakly.
struct WeakChatListener {
    weak var listener: (any ChatConnectionListener)?
}

extension SocialClient {
    /// Starts telling `listener` about the connection, until it is released or removed.
    func addChatListener(_ listener: any ChatConnectionListener) {
        chatListeners.removeAll { $0.listener == nil }
        chatListeners.append(WeakChatListener(listener: listener))
    }

    /// Stops telling `listener` anything.
    func removeChatListener(_ listener: any ChatConnectionListener) {
        chatListeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    /// Writes `change` to the cache in the next batch, with `change` as the write's note: after
    /// the commit the store's change hub hands it to every chat collection (in commit order,
    /// before the completions of the batch's writes), then `completion` runs with nil or the
    /// error that rolled it back.
    func enqueueCommit(_ change: ChatChange, completion: @escaping @MainActor ((any Error)?) -> Void = { _ in }) {
        let userId = self.userId
        store.enqueueWrite(noting: { transaction in
            try change.write(in: transaction, ownerId: userId)
            return change
        }, completion: completion)
    }

    /// ``enqueueCommit(_:completion:)`` for async callers: returns after the chat collections were told.
    func commit(_ change: ChatChange) async throws {
        let userId = self.userId
        try await write { transaction in
            try change.write(in: transaction, ownerId: userId)
            return ((), change)
        }
    }

    /// Runs `body` in a write of the store and returns its result; the change `body` returns, if
    /// any, is the write's note, which the chat collections hear through the change hub once the
    /// write commits, before this method returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (CacheTransaction) throws -> (T, ChatChange?)) async throws -> T {
        // Written inside the write on the store's queue, read after the write's completion.
        let result = LockedState<T?>(nil)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            store.enqueueWrite(noting: { transaction in
                let (value, change) = try body(transaction)
                result.withLock { $0 = value }
                return change
            }) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        return result.withLock { $0! }
    }

    /// Tells the chat listeners and the outbox that the connection went up or down; on the first
    /// connection, settles the changes an earlier run left unfinished.
    func connectionDidChange(connected: Bool) {
        let listeners = chatListeners.compactMap(\.listener)
        if connected {
            settleInterruptedChanges()
            if autoResendMessages { outbox.resume() }
            for listener in listeners { listener.clientDidConnect() }
        } else {
            for listener in listeners { listener.clientDidDisconnect() }
        }
    }
}

