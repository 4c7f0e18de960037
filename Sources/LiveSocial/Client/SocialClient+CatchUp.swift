import LiveRepository

/// Where the client-wide catch-up stands: whether one runs, the events held meanwhile, and the
/// point a failed one resumes from.
struct CatchUpState {
    /// Whether a catch-up reads the change log now.
    var isRunning = false
    /// The connection came back while a catch-up ran: another pass follows it.
    var isOwedAgain = false
    /// Real-time change events that arrived while the catch-up ran, in order.
    var held: [SocialEvent] = []
    /// Where the next catch-up starts, even when events applied since moved
    /// ``SocialClient/lastEventSequence`` past it: the point the last failed catch-up had
    /// committed through, or the end of one that the connection outlived (a gap may follow it).
    var resumePoint: Int64?
    /// The waits before the next try after catch-ups failed in a row while the client was not
    /// known to be offline (see ``SocialClient/retryPolicy``).
    let retries = RetrySchedule()
}

extension SocialClient {
    /// How many changes one change-log request of the client-wide catch-up asks for.
    static let catchUpPageSize = 500

    /// Whether the client-wide catch-up is reading the change log (events that arrive are held
    /// until it ends).
    var isCatchingUp: Bool { catchUpState.isRunning }

    /// Catches the cache up with what happened on the server while the connection was down:
    /// reads ``SocialAPI/changes(since:limit:scope:)`` over every kind from the sync point with a
    /// `ChangeLogReader` that commits page by page, and writes each page like real-time events
    /// would (a server copy replaces the local copy of a create still in flight). Does nothing
    /// before the client has a sync point (``lastEventSequence`` is 0: nothing was applied, so
    /// there is nothing to catch up from).
    ///
    /// Events that arrive meanwhile are held, then those newer than the log are applied after
    /// it, so the log never overwrites a newer event. The writes carry no note, so chat
    /// collections do not apply them: each catches up through its own scope of the log, reported
    /// once, as ``MessageEventSource/changelog``. A catch-up that fails keeps what it committed
    /// and resumes from there: on the next reconnection, or, when the client is not known to be
    /// offline (a server failure while the event stream stays up, as when the server's database
    /// restarts behind it), after a wait of ``SocialClient/retryPolicy``, since no reconnection
    /// may ever come. A retry that succeeds tells the chat collections the connection is back,
    /// so that those whose own catch-up failed in the same outage try theirs again.
    func catchUpAfterReconnection() {
        catchUpState.retries.cancel()
        let since = catchUpState.resumePoint ?? lastEventSequence
        guard since > 0 else { return }
        guard !catchUpState.isRunning else {
            catchUpState.isOwedAgain = true
            return
        }
        catchUpState.isRunning = true
        Task { await runCatchUp(from: since) }
    }

    private func runCatchUp(from start: Int64) async {
        let reader = ChangeLogReader(api: api, scope: .all, pageSize: Self.catchUpPageSize, batching: .eachPage)
        let outcome = await reader.read(since: start) { page in
            try await commitQuietly(change(from: page))
            lastEventSequence = max(lastEventSequence, page.through)
        }
        // A failed catch-up resumes from what committed on the next reconnection.
        let since: Int64
        switch outcome {
        case .caughtUp(let through):
            since = through
            catchUpState.resumePoint = nil
            if catchUpState.retries.failuresInARow > 0 {
                catchUpState.retries.reset()
                for listener in chatListeners.compactMap(\.listener) { listener.clientDidConnect() }
            }
        case .failed(let committed):
            since = committed
            catchUpState.resumePoint = committed
            if !isKnownOffline { scheduleCatchUpRetry() }
        case .canceled(let committed), .hugeGap(let committed, _):
            since = committed
            catchUpState.resumePoint = committed
        }
        // Owed again: the connection dropped and came back meanwhile, so the held events came
        // from two connections, with a gap between them that only the next pass reads. It starts
        // here, however far the newer connection's events move the sync point before it runs
        // (the connection may be down again now, and the pass wait for the next reconnection).
        if catchUpState.isOwedAgain { catchUpState.resumePoint = since }
        catchUpState.isRunning = false
        let held = catchUpState.held
        catchUpState.held = []
        // Older events are in the log, in a state at least as new: only newer ones apply.
        for event in held where (event.sequence ?? 0) > since { apply(event) }
        if catchUpState.isOwedAgain {
            catchUpState.isOwedAgain = false
            if isConnected { catchUpAfterReconnection() }
        }
    }

    /// Catches up again after the next wait of ``SocialClient/retryPolicy``, unless a
    /// reconnection does first (it cancels the wait) or the connection is known to be down then.
    private func scheduleCatchUpRetry() {
        catchUpState.retries.schedule(retryPolicy) { [weak self] in
            guard let self, !isKnownOffline else { return }
            catchUpAfterReconnection()
        }
    }

    /// One page of the change log as a change of the cache, with the local copies of creates in
    /// flight that its records replace.
    private func change(from page: ChangeLogReader.Batch) -> ChatChange {
        var change = page.change(source: .changelog)
        for record in page.records {
            change.removals += replacePendingCreate(with: record)
        }
        return change
    }

    /// Writes `change` in the store's order, without a note: the chat collections of this store
    /// do not apply it (see `catchUpAfterReconnection()`).
    private func commitQuietly(_ change: ChatChange) async throws {
        let userId = self.userId
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            store.enqueueWrite({ transaction in try change.write(in: transaction, ownerId: userId) }) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
