import LiveRepository
import LiveSocial

extension EmbeddedServer {
    /// How many times a write is tried when the file stays busy (each try waits up to the busy
    /// timeout, 5 seconds, for the other connection's lock) before the action fails.
    static let writeAttempts = 4

    /// How many change-log entries of other processes one read publishes at most.
    static let externalBatch = 500

    /// Publishes the changes that other servers on this file (in this process or another) have
    /// committed since the last publication, as real-time events to this server's connections.
    ///
    /// The server calls it when its watcher finds the file changed; call it yourself to
    /// deliver those changes at once (a test with no watching, an app that comes to the
    /// foreground). Events go out in sequence order, after those of earlier writes and before
    /// those of later ones, each once; a record's event carries its current state, and a record
    /// removed since is published as deleted. While the server is disconnected, or nobody
    /// listens, the changes are passed over: clients catch up with `changes(since:limit:scope:)`.
    ///
    /// - Returns: how many events were published.
    /// - Throws: `SocialAPIError.serverFailure(_:)` when the database cannot be read; nothing is
    ///   passed over, and the next call tries again.
    @discardableResult
    public func publishExternalChanges() throws -> Int {
        var published = 0
        while true {
            let start = hub.publishedSequence
            let batch = try serve {
                try database.readTransaction { try externalEvents(after: start, limit: Self.externalBatch) }
            }
            guard batch.through > start else { return published }
            hub.publish(batch.events, audiences: batch.audiences, through: batch.through)
            published += batch.events.count
        }
    }

    /// Runs `body` in one write transaction, then publishes, in sequence order, the events of the
    /// changes other servers committed before it and the events `body` collected.
    ///
    /// The transaction holds the file's write lock from its start, so sequence numbers, ids and
    /// timestamps taken in it follow every other server's. When the file is busy for longer than
    /// the busy timeout, `body` runs again, up to `writeAttempts` times in all: it must only
    /// write through the database and `events`.
    ///
    /// - Throws: what `body` throws; database errors as `SocialAPIError.serverFailure(_:)`.
    func transaction<T>(_ body: (inout [SocialEvent]) throws -> T) throws -> T {
        try serve {
            var attempt = 1
            while true {
                do {
                    return try attemptTransaction(body)
                } catch let error as SQLiteError where error.isBusy && attempt < Self.writeAttempts {
                    attempt += 1
                    busyRetryObserver?(attempt)
                }
            }
        }
    }

    /// Sets how long a statement waits for another connection's lock (5 s by default), and a
    /// call made before each new attempt of a busy write; for tests.
    func setBusyHandling(timeoutMilliseconds: Int, observer: (@Sendable (Int) -> Void)?) throws {
        try (database as? ServerDatabase)?.setBusyTimeout(milliseconds: timeoutMilliseconds)
        busyRetryObserver = observer
    }

    private func attemptTransaction<T>(_ body: (inout [SocialEvent]) throws -> T) throws -> T {
        var events: [SocialEvent] = []
        let (published, external, own, result, through) = try database.transaction {
            () throws -> ([SocialEvent], [EventAudience], [EventAudience]?, T, Int64) in
            // Holding the write lock: every entry after the published position is another
            // server's, committed before this transaction, and comes before its own entries.
            let external = try externalEvents(after: hub.publishedSequence, limit: Int(Int32.max))
            let result = try body(&events)
            // Each event is addressed with the memberships just after its change.
            let own = hub.hasListeners ? try addresses(of: events) : nil
            afterAddressing?()
            return (external.events + events, external.audiences, own, result, try database.latestSequence())
        }
        hub.publish(published, audiences: external + (own ?? lateAddresses(of: events)), through: through)
        if let sharedFile, !events.isEmpty {
            ExternalChangeMonitor.shared.announce(file: sharedFile, from: watcher?.subscription)
        }
        return result
    }

    /// Sets the call made in a write's transaction once its own events are addressed; for tests.
    func setAfterAddressing(_ hook: (@Sendable () -> Void)?) {
        afterAddressing = hook
    }

    /// The events of the change-log entries after `sequence`, up to `limit` of them, with each
    /// record's state now, and the sequence of the last entry read. When publishing would reach
    /// nobody, no events, and the latest sequence: those changes are passed over.
    private func externalEvents(
        after sequence: Int64, limit: Int
    ) throws -> (events: [SocialEvent], audiences: [EventAudience], through: Int64) {
        if !hub.hasListeners {
            // Looked at again once the latest number is read: a stream that subscribes after that
            // subscribed after those changes committed, but one that subscribed in between may be
            // owed some of them (its subscriber wrote them since), and they are read for it.
            let latest = try database.latestSequence()
            if !hub.hasListeners { return ([], [], max(sequence, latest)) }
        }
        let entries = try database.changeEntries(after: sequence, scope: .all, limit: limit)
        // The records, and for the audiences each channel and its memberships, in one trip where reads cost one.
        let channelIds = Set(entries.compactMap { $0.key.kind == .channel ? $0.key.id : $0.channelId })
        try database.prepareToRead(
            records: entries.filter { !$0.isRemoval }.map(\.key) + channelIds.map { SocialRecordKey(.channel, $0) },
            membershipsOf: channelIds.sorted())
        var states: [SocialRecordKey: SocialRecord?] = [:]
        var events: [SocialEvent] = []
        events.reserveCapacity(entries.count)
        for entry in entries {
            var record: SocialRecord?
            if !entry.isRemoval {
                if let known = states[entry.key] {
                    record = known
                } else {
                    record = try database.load(entry.key)
                    states[entry.key] = record
                }
            }
            guard let record else {
                events.append(.deleted(entry.key, sequence: entry.sequence))
                continue
            }
            events.append(entry.isCreation ? .created(record, sequence: entry.sequence) : .updated(record, sequence: entry.sequence))
        }
        return (events, try audiences(of: events), entries.last?.sequence ?? sequence)
    }

    /// Who may receive each event (see ``AccessRules``); nobody needs to when nobody listens.
    private func audiences(of events: [SocialEvent]) throws -> [EventAudience] {
        hub.hasListeners ? try addresses(of: events) : events.map { _ in .only([]) }
    }

    /// Who may receive each event, read now.
    private func addresses(of events: [SocialEvent]) throws -> [EventAudience] {
        var resolver = AudienceResolver(database: database)
        return try resolver.audiences(of: events)
    }

    /// After a write whose transaction found nobody listening: who may receive its events, read
    /// after the commit, when a stream has subscribed since (it subscribed before the commit, and
    /// is owed them); nobody otherwise. A stream that subscribes after this look subscribed after
    /// the commit. When the read fails, nobody: the write stands, and a client that catches up
    /// after subscribing gets the changes from the change log.
    private func lateAddresses(of events: [SocialEvent]) -> [EventAudience] {
        let nobody = events.map { _ in EventAudience.only([]) }
        guard !events.isEmpty, hub.hasListeners else { return nobody }
        return (try? database.readTransaction { try addresses(of: events) }) ?? nobody
    }
}

extension SQLiteError {
    /// Whether another connection held a lock the statement needed (`SQLITE_BUSY`, 5, or
    /// `SQLITE_LOCKED`, 6, with any extended code): trying again later can succeed.
    var isBusy: Bool { code == 5 || code == 6 }
}
