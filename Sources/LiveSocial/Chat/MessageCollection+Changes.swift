import LiveRepository

extension MessageCollection: ChatConnectionListener {
    /// Applies a committed change (see `storeDidCommit(_:)`): what it does to the list reaches
    /// the delegate and ``events``, reported with the change's source.
    func apply(_ change: ChatChange) {
        // After a huge gap the collection is stale: it waits to be disposed.
        guard state.changeCommitted(sequence: change.sequence) == .apply else { return }
        var report = Report(source: change.source)
        for record in change.upserts {
            switch record {
            case .message(let message) where message.channelId == channelId:
                apply(message, to: &report)
            case .channel(let channel) where channel.id == channelId:
                if channel.isDeleted {
                    report.channelDeleted = true
                } else if channel != channelValue {
                    channelValue = channel
                    report.channelUpdated = channel
                }
            default:
                break
            }
        }
        for key in change.removals {
            switch key.kind {
            case .message: remove(id: key.id, canceled: change.canceled, to: &report)
            case .channel where key.id == channelId: report.channelDeleted = true
            default: break
            }
        }
        deliver(report)
    }

    func clientDidConnect() {
        perform(state.connected())
    }

    func clientDidDisconnect() {
        perform(state.disconnected())
    }

    /// Runs what the state machine asks for when the connection comes back or goes, or a catch-up
    /// failed: a load from the server (the first answer is still owed, or a side came from the
    /// cache, which the change log cannot correct), a catch-up, or the wait for its retry (see
    /// ``SocialClient/retryPolicy``), which a load, a catch-up or a dropped connection ends. The
    /// other actions are run where their input arrives, which holds what they need (the change,
    /// the handlers, the page).
    func perform(_ action: MessageCollectionState.Action) {
        switch action {
        case .reload:
            catchUpRetries.cancel()
            run { await $0.loadFromServer(then: nil, reportingDifferences: true) }
        case .catchUp(let since):
            catchUpRetries.cancel()
            run { await $0.catchUp(since: since) }
        case .retryCatchUpLater:
            catchUpRetries.schedule(client.retryPolicy, for: self) { $0.perform($0.state.retryDue()) }
        case .stopRetrying:
            catchUpRetries.cancel()
        case .none, .refuse, .start, .loadPage, .apply, .readExternal, .stop: break
        }
    }

    // MARK: Applying changes

    /// What one change does to the collection, grouped the way the delegate hears it.
    struct Report {
        var source: MessageEventSource
        var added: [SendingStatus: [Message]] = [:]
        var updated: [SendingStatus: [Message]] = [:]
        var deleted: [SendingStatus: [Message]] = [:]
        var channelUpdated: Channel?
        var channelDeleted = false
    }

    private func apply(_ stored: Message, to report: inout Report) {
        let message = params.project(stored)
        let visible = params.matches(stored)
        if stored.isPending {
            if let old = locals[stored.clientRequestId] {
                if !visible {
                    locals[stored.clientRequestId] = nil
                    report.deleted[old.sendingStatus, default: []].append(old)
                } else if old != message {
                    locals[stored.clientRequestId] = message
                    report.updated[message.sendingStatus, default: []].append(message)
                }
            } else if visible, !succeeded.contains(where: { $0.clientRequestId == stored.clientRequestId && $0.userId == stored.userId }) {
                locals[stored.clientRequestId] = message
                report.added[message.sendingStatus, default: []].append(message)
            }
            return
        }
        if loadsInFlight > 0 { arrivals[stored.id] = visible ? message : Message?.none }
        if stored.userId == client.userId, let local = locals[stored.clientRequestId] {
            // The server's copy of a message sent from here: the same message, now sent. Beyond
            // the loaded part (``hasNext`` is true), it leaves the list; while a load waits for
            // the server, which may bring the range to it, its pending copy stays until the load ends.
            if visible, isInRange(stored) {
                locals[stored.clientRequestId] = nil
                insertSucceeded(message)
                report.updated[.succeeded, default: []].append(message)
            } else if !visible || loadsInFlight == 0 {
                locals[stored.clientRequestId] = nil
                report.deleted[local.sendingStatus, default: []].append(local)
            }
        } else if let index = succeeded.firstIndex(where: { $0.id == stored.id }) {
            let old = succeeded[index]
            if !visible {
                succeeded.remove(at: index)
                report.deleted[.succeeded, default: []].append(old)
            } else if old != message {
                succeeded[index] = message
                report.updated[.succeeded, default: []].append(message)
            }
        } else if visible, isInRange(stored) {
            insertSucceeded(message)
            report.added[.succeeded, default: []].append(message)
        }
    }

    private func remove(id: String, canceled: Set<String>, to report: inout Report) {
        if let local = locals.removeValue(forKey: id) {
            if canceled.contains(id) {
                report.updated[.canceled, default: []].append(local)
            } else {
                report.deleted[local.sendingStatus, default: []].append(local)
            }
        } else if let index = succeeded.firstIndex(where: { $0.id == id }) {
            report.deleted[.succeeded, default: []].append(succeeded.remove(at: index))
        }
        if loadsInFlight > 0 { arrivals[id] = Message?.none }
    }

    /// Tells the delegate and ``events`` what a report holds, then publishes the new ``snapshot``
    /// (unless `publishing` is false: a report that another one follows for the same change).
    func deliver(_ report: Report, publishing: Bool = true) {
        guard !isDisposed else { return }
        let statuses = SendingStatus.allCases
        for status in statuses {
            guard let messages = report.added[status] else { continue }
            let context = MessageContext(sendingStatus: status, source: report.source)
            emit(.added(messages, context))
            delegate?.messageCollection(self, context: context, channel: channelValue, addedMessages: messages)
        }
        for status in statuses {
            guard let messages = report.updated[status] else { continue }
            let context = MessageContext(sendingStatus: status, source: report.source)
            emit(.updated(messages, context))
            delegate?.messageCollection(self, context: context, channel: channelValue, updatedMessages: messages)
        }
        for status in statuses {
            guard let messages = report.deleted[status] else { continue }
            let context = MessageContext(sendingStatus: status, source: report.source)
            emit(.deleted(messages, context))
            delegate?.messageCollection(self, context: context, channel: channelValue, deletedMessages: messages)
        }
        let channelContext = ChannelContext(source: report.source)
        if let channel = report.channelUpdated {
            emit(.channelUpdated(channel, channelContext))
            delegate?.messageCollection(self, channelContext: channelContext, updatedChannel: channel)
        }
        if report.channelDeleted {
            emit(.channelDeleted(channelId, channelContext))
            delegate?.messageCollection(self, channelContext: channelContext, deletedChannel: channelId)
        }
        if publishing { publish() }
    }

    /// Sets ``events`` unless the collection was disposed meanwhile (by a delegate, say).
    private func emit(_ event: MessageCollectionEvent) {
        guard !isDisposed else { return }
        eventData.data = event
    }

    /// The difference between two lists of succeeded messages, as one change from the server.
    func differences(from old: [Message], to new: [Message]) -> Report {
        var report = Report(source: .api)
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))
        for message in new {
            if let previous = oldByID[message.id] {
                if previous != message { report.updated[.succeeded, default: []].append(message) }
            } else {
                report.added[.succeeded, default: []].append(message)
            }
        }
        for message in old where !newIDs.contains(message.id) { report.deleted[.succeeded, default: []].append(message) }
        return report
    }

    // MARK: Catching up

    /// Reads the channel's change log since the sync point and applies it in one write, with the
    /// channel as the server has it now, reported with the source ``MessageEventSource/changelog``;
    /// or, when more than ``hugeGapThreshold`` messages changed, reports a huge gap and applies
    /// nothing.
    func catchUp(since point: Int64) async {
        let reader = ChangeLogReader(
            api: client.api, scope: .messages(channelId: channelId), pageSize: Self.changeLogPageSize, batching: .wholeLog)
        let outcome = await reader.read(since: point) { log in
            missedCount(log.records) + log.removals.count > hugeGapThreshold
        } commit: { log in
            var change = log.change(source: .changelog)
            if let channel = try await client.api.fetch(Channel.self, id: channelId) {
                change.upserts.append(.channel(channel))
            } else {
                change.removals.append(SocialRecordKey(.channel, channelId))
            }
            try await client.commit(change)
        }
        switch outcome {
        case .caughtUp(let through):
            if isDisposed { return }
            catchUpRetries.reset()
            perform(state.catchUpFinished(through: through, connected: client.isConnected))
        case .hugeGap:
            state.hugeGapFound()
            emit(.hugeGapDetected)
            delegate?.didDetectHugeGap(self)
        case .failed:
            // The next reconnection tries again from the same point, and so does a retry after a
            // wait while the client is not known to be offline (the server failed, and the
            // connection may stay up).
            perform(state.catchUpFailed(connected: !client.isKnownOffline))
        case .canceled:
            // Disposed: nothing more happens.
            break
        }
    }

    /// How many of a change log's records the collection has missed: every one but the messages
    /// it already shows exactly as the log has them. The log starts at the sync point, which can
    /// be older than messages the collection shows (the user's own, sent while the start waited
    /// for the server and answered before the connection dropped): those were not missed.
    private func missedCount(_ records: some Collection<SocialRecord>) -> Int {
        guard !succeeded.isEmpty else { return records.count }
        let shown = Dictionary(succeeded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return records.count { record in
            guard case .message(let message) = record, let listed = shown[message.id] else { return true }
            return !params.matches(message) || params.project(message) != listed
        }
    }

    /// How many changes one change-log request asks for.
    static let changeLogPageSize = 100
}
