import LiveRepository

/// How a channel collection hears every commit to the cache: through the store's change hub.
///
/// Its own store's writes carry their ``ChatChange`` as a note, applied at once without a read.
/// Channels that reached the cache another way (another connection or process on the same file,
/// such as an app extension) come as the changed rows' ids: the collection reads those channels
/// (or, when the table changed whole, every channel its query lists) and applies them with the
/// source ``MessageEventSource/cache``. Applying compares with what is listed, so a channel
/// already shown as it is reports nothing. A cache rebuilt by a recovery leaves the list as it
/// is: the empty cache says nothing about the server's channels.
extension ChannelCollection: StoreCommitObserver {
    package func storeDidCommit(_ delivery: StoreChangeDelivery) {
        for case let change as ChatChange in delivery.notes where change.touchesChat || change.sequence != nil {
            apply(change)
        }
        guard let changed = delivery.external[Channel.table.name],
              state.externalCommit(rebuilt: changed.isRebuilt) == .readExternal else { return }
        let ids = changed.isWholeTable ? nil : changed.ids
        let cacheQuery = query.cacheQuery
        client.store.read({ connection -> [Channel] in
            if let ids { return try ids.sorted().compactMap { try Channel.read(id: $0, from: connection) } }
            return try Channel.read(cacheQuery, from: connection)
        }) { [weak self] result in
            guard let self, self.state.externalRowsRead() == .apply, case .success(let found) = result else { return }
            var change = ChatChange(upserts: found.map(SocialRecord.channel), source: .cache)
            let present = Set(found.map(\.id))
            let named = ids ?? Set(self.channels.map(\.id))
            change.removals = named.subtracting(present).sorted().map { SocialRecordKey(.channel, $0) }
            self.apply(change)
        }
    }
}
