import LiveRepository

/// A chat listener held weakly.
struct WeakChatListener {
    weak var listener: (any ChatChangeListener)?
}

extension SocialClient {
    /// Starts telling `listener` about chat changes and the connection, until it is released or removed.
    func addChatListener(_ listener: any ChatChangeListener) {
        chatListeners.removeAll { $0.listener == nil }
        chatListeners.append(WeakChatListener(listener: listener))
    }

    /// Stops telling `listener` anything.
    func removeChatListener(_ listener: any ChatChangeListener) {
        chatListeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    /// Writes `change` to the cache in the next batch; after the commit, tells the chat listeners
    /// (in commit order), then calls `completion` with nil or the error that rolled it back.
    func enqueueCommit(_ change: ChatChange, completion: @escaping @MainActor ((any Error)?) -> Void = { _ in }) {
        let userId = self.userId
        store.enqueueWrite({ transaction in try change.write(in: transaction, ownerId: userId) }) { [weak self] error in
            MainActor.assumeIsolated {
                if error == nil { self?.broadcast(change) }
                completion(error)
            }
        }
    }

    /// ``enqueueCommit(_:completion:)`` for async callers: returns after the listeners were told.
    func commit(_ change: ChatChange) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enqueueCommit(change) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Tells every chat listener about a committed change. Listeners are collected first, so one
    /// that adds or removes listeners does not disturb this round.
    func broadcast(_ change: ChatChange) {
        guard change.touchesChat || change.sequence != nil else { return }
        for listener in chatListeners.compactMap(\.listener) { listener.clientDidCommit(change) }
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
