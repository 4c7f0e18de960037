import LiveRepository

extension SocialClient {
    /// Settles the changes an earlier run of the app left unfinished: records it wrote `syncing`
    /// before asking the server (an edit, a reaction, a follow…) and whose answer it never wrote,
    /// because the process was killed meanwhile. Nothing else would ever touch them: they would
    /// show `syncing` for good, and an edit the server never received would show as made.
    ///
    /// Whether the server made the change is unknown, so the server decides: each record is
    /// fetched and its server copy replaces the local one, or, when the server has no such record,
    /// the local one is removed (the create never arrived). A record removed locally (noted in
    /// ``RemovalJournal``) that the server still has comes back. A record created under a local id
    /// cannot be fetched: it becomes failed (`error`), as when the answer to its create is lost.
    /// Pending messages are the outbox's (it sends them again); records this run is changing are
    /// left alone. Runs once, on the first connection; a record whose fetch fails waits for the
    /// next connection.
    func settleInterruptedChanges() {
        guard !interruptedChangesSettled else { return }
        interruptedChangesSettled = true
        Task {
            var settled = await settleRemovals()
            settled = await settle(Message.self, syncState: \.syncState) && settled
            settled = await settle(Reaction.self, syncState: \.syncState) && settled
            settled = await settle(Post.self, syncState: \.syncState) && settled
            settled = await settle(Comment.self, syncState: \.syncState) && settled
            settled = await settle(Follow.self, syncState: \.syncState) && settled
            settled = await settle(ChannelMember.self, syncState: \.syncState) && settled
            settled = await settle(CommunityMember.self, syncState: \.syncState) && settled
            if !settled { interruptedChangesSettled = false }
        }
    }

    /// Settles the removals an earlier run made locally and never heard the answer to (see
    /// ``RemovalJournal``): a record the server still has comes back, as when a removal fails.
    private func settleRemovals() async -> Bool {
        guard let removals = try? await store.read({ try RemovalJournal.all(in: $0) }) else { return false }
        var settled = true
        for removal in removals {
            guard let kind = SocialRecordKind.allCases.first(where: { $0.table.name == removal.recordTable }) else { continue }
            settled = await settleRemoval(of: kind.recordType, id: removal.id) && settled
        }
        return settled
    }

    private func settleRemoval<Record: CacheRecord>(of type: Record.Type, id: String) async -> Bool {
        let table = Record.table.name
        guard recordsInFlight[Self.inFlightKey(Record.self, id: id)] == nil else { return true }
        let server: Record?
        do {
            server = try await api.fetch(Record.self, id: id)
        } catch {
            return false
        }
        // This run changes the record again: its own answer decides.
        guard recordsInFlight[Self.inFlightKey(Record.self, id: id)] == nil else { return true }
        let restored = try? await write { [userId, server] transaction -> (Bool, ChatChange?) in
            try RemovalJournal.clear(table, id: id, in: transaction)
            // Back meanwhile (added again, or brought by a page or an event): nothing to undo.
            guard let server, let record = SocialRecord(server), try transaction.record(Record.self, id: id) == nil else {
                return (false, nil)
            }
            try record.store(in: transaction, ownerId: userId)
            return (true, ChatChange(upserts: [record], source: .api))
        }
        return restored ?? false
    }

    /// The key of ``recordsInFlight`` for a record.
    static func inFlightKey<Record: CacheRecord>(_ type: Record.Type, id: String) -> String {
        "\(Record.table.name) \(id)"
    }

    /// Settles the `Record`s left `syncing`; false when one could not be settled now.
    private func settle<Record: CacheRecord>(_ type: Record.Type, syncState: any WritableKeyPath<Record, SyncState> & Sendable) async -> Bool {
        let table = Record.table.name
        var sql = "SELECT id FROM \(table) WHERE syncState = '\(SyncState.syncing.rawValue)'"
        var bindings: [SQLiteValue] = []
        if Record.self == Message.self {
            // Only the user's own messages change here, and a pending one (its id is still its
            // client request id) belongs to the outbox. The literal `<> 'synced'` lets SQLite use
            // the partial index of unsynced messages instead of reading the table.
            sql += " AND userId = ? AND syncState <> 'synced' AND id <> clientRequestId"
            bindings.append(.text(userId))
        }
        guard let ids = try? await store.read({ [sql, bindings] in try $0.query(sql, bindings) { $0.string(0) } }) else {
            return false
        }
        var settled = true
        for id in ids where recordsInFlight[Self.inFlightKey(Record.self, id: id)] == nil {
            let isLocal = id.hasPrefix(Self.localIDPrefix)
            var server: Record?
            if !isLocal {
                do {
                    server = try await api.fetch(Record.self, id: id)
                } catch {
                    settled = false
                    continue
                }
            }
            // Checked again after the fetch: a change this run made meanwhile is written after
            // this one (the store writes in order) and wins.
            guard recordsInFlight[Self.inFlightKey(Record.self, id: id)] == nil else { continue }
            let key = SocialRecordKind(of: Record.self).map { SocialRecordKey($0, id) }
            _ = try? await write { [userId, server] transaction -> (Void, ChatChange?) in
                // Answered meanwhile (by a real-time event, say): nothing to settle.
                guard var local = try transaction.record(Record.self, id: id), local[keyPath: syncState] == .syncing else {
                    return ((), nil)
                }
                if let server, let record = SocialRecord(server) {
                    try record.store(in: transaction, ownerId: userId)
                    return ((), ChatChange(upserts: [record], source: .api))
                }
                if isLocal {
                    local[keyPath: syncState] = .error
                    try transaction.upsert(local)
                    return ((), ChatChange(upserts: SocialRecord(local).map { [$0] } ?? [], source: .local))
                }
                try transaction.delete(Record.self, id: id)
                return ((), ChatChange(removals: key.map { [$0] } ?? [], source: .api))
            }
        }
        return settled
    }
}
