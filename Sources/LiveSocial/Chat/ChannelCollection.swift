import LiveData
import LiveRepository

/// The channel list of a chat app, most recently active first: the cached channels first, then
/// the server's, then every change as it happens, and a catch-up with the server's change log
/// whenever the connection comes back.
///
/// ```swift
/// let channels = client.createChannelCollection()
/// channels.delegate = self
/// let firstPage = try await channels.loadMore()
/// ```
///
/// ``loadMore()`` pages: its cached channels join ``channels`` (and ``snapshot``) at once, then
/// the server's page replaces them. Changes from then on reach the ``delegate`` and ``events``
/// with a ``ChannelContext``. A channel that becomes active moves to the top; one that falls
/// beyond the loaded part while more can be loaded is not added until a page brings it.
@MainActor
public final class ChannelCollection {
    /// The channels listed, as a query: types, and the most-recently-active-first order.
    public let query: SocialQuery<Channel>
    /// How many channels a page adds.
    public let pageSize: Int
    /// The object told about changes; held weakly.
    public weak var delegate: (any ChannelCollectionDelegate)?
    /// Every change the delegate hears, as a value (an inactive observer gets only the latest).
    public var events: LiveData<ChannelCollectionEvent> { eventData }
    /// The channels as they are now, set after every change and page.
    public var snapshot: LiveData<[Channel]> { snapshotData }
    /// The channels loaded, most recently active first.
    public private(set) var channels: [Channel] = []
    /// Whether ``loadMore()`` can bring more channels.
    public private(set) var hasMore = true
    /// Whether ``dispose()`` was called.
    public private(set) var isDisposed = false
    /// Whether a page has come from the server: until then the list shows only cached channels
    /// (a view's "local" state); afterwards it is fresh and kept current.
    public private(set) var hasLoadedFromServer = false

    private let client: SocialClient
    private let eventData = MutableLiveData<ChannelCollectionEvent>()
    private let snapshotData = MutableLiveData<[Channel]>(data: [])
    private var cursor: String?
    private var isLoading = false
    private var syncSequence: Int64?
    private var isInSync = false
    private var isSyncing = false
    /// The catch-up under way, canceled by ``dispose()``.
    private var catchUpTask: Task<Void, Never>?

    init(client: SocialClient, types: Set<ChannelType>?, pageSize: Int) {
        precondition(pageSize > 0, "a page holds at least one channel")
        self.client = client
        self.query = .channels(types: types)
        self.pageSize = pageSize
        client.addChatListener(self)
    }

    // MARK: Paging

    /// Loads the next page: cached channels join the list at once, then the server's page
    /// replaces them (the cache is cleared of channels the server no longer lists there).
    /// Returns the page, most recently active first.
    ///
    /// When the server fails, returns the cached page if there is one (``hasMore`` stays true),
    /// else throws the server's error.
    ///
    /// - Throws: ``ChatError/disposed``, ``ChatError/loadInProgress`` or
    ///   ``ChatError/noMorePages``; else the server's error as above.
    @discardableResult
    public func loadMore() async throws -> [Channel] {
        if isDisposed { throw ChatError.disposed }
        guard !isLoading else { throw ChatError.loadInProgress }
        guard hasMore else { throw ChatError.noMorePages }
        isLoading = true
        defer { isLoading = false }
        let start = channels.last.map(Self.position(of:))
        let cacheQuery = query.cacheQuery
        let size = pageSize
        let cached = (try? await client.store.read { try Channel.read(cacheQuery, after: start, limit: size, from: $0) }) ?? []
        if isDisposed { throw ChatError.disposed }
        for channel in cached { insert(channel) }
        publish()
        let page: RemotePage<Channel>
        let sequence: Int64?
        do {
            sequence = hasLoadedFromServer ? nil : try await client.api.latestSequence()
            page = try await client.api.fetchPage(query, cursor: cursor, limit: size)
            try await replace(page, after: start)
        } catch {
            if isDisposed { throw ChatError.disposed }
            guard !cached.isEmpty else { throw error }
            return cached
        }
        if isDisposed { throw ChatError.disposed }
        let returned = Set(page.records.map(\.id))
        channels.removeAll { channel in cached.contains { $0.id == channel.id } && !returned.contains(channel.id) }
        for channel in page.records { insert(channel) }
        cursor = page.nextCursor
        hasMore = page.nextCursor != nil
        if let sequence {
            syncSequence = sequence
            isInSync = client.isConnected
            hasLoadedFromServer = true
        }
        publish()
        return page.records
    }

    /// ``loadMore()`` with a completion handler.
    public func loadMore(completionHandler: @escaping @MainActor ([Channel]?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await loadMore(), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Writes a server page to the cache and deletes the cached channels it shows are gone.
    private func replace(_ page: RemotePage<Channel>, after start: (sortValue: SQLiteValue, id: String)?) async throws {
        let cacheQuery = query.cacheQuery
        let end = page.nextCursor == nil ? nil : page.records.last.map(Self.position(of:))
        try await client.store.write { transaction in
            try transaction.deleteStale(cacheQuery, after: start, through: end, keeping: page.records.map(\.id))
            try transaction.upsert(contentsOf: page.records)
        }
    }

    // MARK: The list

    /// A channel's place in the query's order, as keyset reads take it.
    nonisolated static func position(of channel: Channel) -> (sortValue: SQLiteValue, id: String) {
        (.real(channel.lastActivityAt), channel.id)
    }

    /// Whether `a` comes before `b` in the list: more recently active, then by id, as the query orders.
    nonisolated static func precedes(_ a: Channel, _ b: Channel) -> Bool {
        (a.lastActivityAt, a.id) > (b.lastActivityAt, b.id)
    }

    private func insert(_ channel: Channel) {
        channels.removeAll { $0.id == channel.id }
        channels.insert(channel, at: channels.partitioningIndex { !Self.precedes($0, channel) })
    }

    private func isInRange(_ channel: Channel) -> Bool {
        guard hasMore else { return true }
        guard let last = channels.last else { return false }
        return !Self.precedes(last, channel)
    }

    private func matches(_ channel: Channel) -> Bool {
        guard !channel.isDeleted else { return false }
        if case .channels(let types, _) = query.kind, let types { return types.contains(channel.type) }
        return true
    }

    private func publish() {
        guard !isDisposed, snapshotData.data != channels else { return }
        snapshotData.data = channels
    }

    // MARK: Disposing

    /// Stops the collection for good: it delivers nothing more and lets go of its delegate, its
    /// channels and its work. Paging afterwards throws ``ChatError/disposed``.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        delegate = nil
        client.removeChatListener(self)
        catchUpTask?.cancel()
        catchUpTask = nil
        channels = []
    }
}

extension ChannelCollection: ChatChangeListener {
    func clientDidCommit(_ change: ChatChange) {
        guard !isDisposed else { return }
        if let sequence = change.sequence, isInSync, let syncSequence { self.syncSequence = max(syncSequence, sequence) }
        var added: [Channel] = []
        var updated: [Channel] = []
        var deleted: [String] = []
        for case .channel(let channel) in change.upserts {
            let known = channels.contains { $0.id == channel.id }
            if known, !matches(channel) {
                channels.removeAll { $0.id == channel.id }
                deleted.append(channel.id)
            } else if known {
                guard channels.first(where: { $0.id == channel.id }) != channel else { continue }
                insert(channel)
                updated.append(channel)
            } else if matches(channel), isInRange(channel) {
                insert(channel)
                added.append(channel)
            }
        }
        for key in change.removals where key.kind == .channel && channels.contains(where: { $0.id == key.id }) {
            channels.removeAll { $0.id == key.id }
            deleted.append(key.id)
        }
        report(added: added, updated: updated, deleted: deleted, source: change.source)
    }

    func clientDidConnect() {
        guard !isDisposed, !isSyncing, let since = syncSequence else { return }
        catchUpTask = Task { [weak self] in _ = await self?.catchUp(since: since) }
    }

    func clientDidDisconnect() {
        isInSync = false
    }

    private func report(added: [Channel], updated: [Channel], deleted: [String], source: MessageEventSource) {
        let context = ChannelContext(source: source)
        if !added.isEmpty {
            eventData.data = .added(added, context)
            delegate?.channelCollection(self, context: context, addedChannels: added)
        }
        if !updated.isEmpty, !isDisposed {
            eventData.data = .updated(updated, context)
            delegate?.channelCollection(self, context: context, updatedChannels: updated)
        }
        if !deleted.isEmpty, !isDisposed {
            eventData.data = .deleted(deleted, context)
            delegate?.channelCollection(self, context: context, deletedChannelIds: deleted)
        }
        publish()
    }

    /// Applies the channels' change log since the sync point, reported with the source
    /// ``MessageEventSource/changelog``.
    private func catchUp(since start: Int64) async {
        isSyncing = true
        defer { isSyncing = false }
        var since = start
        var change = ChatChange(source: .changelog)
        do {
            while true {
                let log = try await client.api.changes(since: since, limit: 100, scope: .channels)
                change.upserts += log.records
                change.removals += log.deleted
                since = log.latestSequence
                guard log.hasMore else { break }
            }
            if isDisposed { return }
            try await client.commit(change)
            syncSequence = max(syncSequence ?? since, since)
            isInSync = client.isConnected
        } catch {
            // The next reconnection tries again from the same point.
        }
    }
}
