import LiveRepository

/// How a message collection hears every commit to the cache: through the store's change hub.
///
/// Its own store's writes carry their ``ChatChange`` as a note: the records as written, applied
/// at once (no read: the writer had them in memory, and the collection hears them before the
/// write's caller resumes, as the user expects of a send). What reached the cache another way
/// (another connection or process on the same file, such as an app extension; a recovery) comes
/// as the changed rows' ids: the collection reads those rows, one lookup by primary key each,
/// only when such a commit touched messages or its channel, and applies them with the source
/// ``MessageEventSource/cache``. Applying compares with what is listed, so a row already shown
/// as it is reports nothing, and a change is never applied twice.
extension MessageCollection: StoreCommitObserver {
    package func storeDidCommit(_ delivery: StoreChangeDelivery) {
        for case let change as ChatChange in delivery.notes where change.touchesChat || change.sequence != nil {
            apply(change)
        }
        if !delivery.external.isEmpty { applyExternal(delivery.external) }
    }

    /// Reads the rows another connection changed that concern the collection, then applies them.
    private func applyExternal(_ external: StoreChange) {
        guard state.followsChanges else { return }
        let messages = external[Message.table.name]
        let channels = external[Channel.table.name]
        let channelTouched = channels.map { $0.isWholeTable || $0.ids.contains(channelId) } ?? false
        guard messages != nil || channelTouched else { return }
        // A recovery that rebuilt the cache empty says nothing about the messages: the list stays
        // and is loaded from the server again, now or once connected.
        let rebuilt = messages?.isRebuilt == true || channels?.isRebuilt == true
        let action = state.externalCommit(rebuilt: rebuilt, connected: client.isConnected)
        guard action == .readExternal else { return perform(action) }
        let request = ExternalRead(
            channelId: channelId, userId: client.userId, ids: messages.flatMap { $0.isWholeTable ? nil : $0.ids },
            readsMessages: messages != nil, readsChannel: channelTouched, range: state.range)
        client.store.read({ connection -> ExternalRead.Found in try request.run(on: connection) }) { [weak self] result in
            guard let self, case .success(let found) = result else { return }
            self.applyRead(found, of: request)
        }
    }

    /// Applies what a read of externally changed rows found: rows of the channel as they are
    /// now, and removals of the listed messages and of the channel the read no longer found.
    private func applyRead(_ found: ExternalRead.Found, of request: ExternalRead) {
        guard state.externalRowsRead() == .apply else { return }
        var change = ChatChange(upserts: found.messages.map(SocialRecord.message), source: .cache)
        let present = Set(found.messages.map(\.id))
        let shown = Set(succeeded.map(\.id)).union(locals.keys)
        // Removed: among the rows the commit named (or, for a whole table, every listed one), the
        // listed ones the read did not find in the channel.
        let gone = (request.ids.map { shown.intersection($0) } ?? shown).subtracting(present)
        change.removals = gone.sorted().map { SocialRecordKey(.message, $0) }
        if request.readsChannel {
            if let channel = found.channel {
                change.upserts.append(.channel(channel))
            } else if channelValue != nil {
                change.removals.append(SocialRecordKey(.channel, channelId))
            }
        }
        apply(change)
    }
}

/// A read of the rows other connections changed that a message collection may list: by id, or
/// for a table changed whole, every message of the channel in the loaded range and the user's
/// unsent ones.
struct ExternalRead: Sendable {
    let channelId: String
    let userId: String
    /// The changed messages' ids; nil when the whole table changed.
    let ids: Set<String>?
    let readsMessages: Bool
    let readsChannel: Bool
    /// The part of history the collection had loaded.
    let range: HistoryRange

    struct Found: Sendable {
        /// The channel's messages found, oldest first.
        var messages: [Message] = []
        var channel: Channel?
    }

    func run(on connection: SQLiteConnection) throws -> Found {
        var found = Found()
        if readsMessages {
            if let ids {
                found.messages = try ids.compactMap { try Message.read(id: $0, from: connection) }
                    .filter { $0.channelId == channelId }
            } else {
                let locals = try Message.local(of: userId, in: channelId, from: connection)
                let channel = CacheQuery<Message>([.equals("channelId", .text(channelId))], orderBy: "createdAt")
                let ranged = try Message.read(channel, within: range, from: connection)
                let localIDs = Set(locals.map(\.id))
                found.messages = locals + ranged.filter { !localIDs.contains($0.id) }
            }
            found.messages.sort(by: MessageCollection.precedes)
        }
        if readsChannel { found.channel = try Channel.read(id: channelId, from: connection) }
        return found
    }
}
