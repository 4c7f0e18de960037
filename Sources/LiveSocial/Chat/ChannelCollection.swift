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
    public var hasMore: Bool { state.paging.hasMore }
    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { state.isDisposed }
    /// Whether a page has come from the server: until then the list shows only cached channels
    /// (a view's "local" state); afterwards it is fresh and kept current.
    public var hasLoadedFromServer: Bool { state.hasLoadedFromServer }

    let client: SocialClient
    private let eventData = MutableLiveData<ChannelCollectionEvent>()
    private let snapshotData = MutableLiveData<[Channel]>(data: [])
    /// Where the collection stands: its phase, its paging and its sync point.
    private(set) var state = ChannelCollectionState()
    /// While ``loadMore()`` runs, the changes that came meanwhile, by channel id: newer than the
    /// cache's page, so they win over it and are never cleared from the cache as stale.
    ///
    /// Against the server's page, an arrival's age is its event's sequence number. The server's
    /// latest sequence, asked just before the page, is `S`: every change numbered up to `S` had
    /// been made when the page was read, so the page shows it or something newer. An arrival an
    /// event numbered `S` or less brought is no newer than the page, which wins over it (such an
    /// event is merely late: sent before the page was read, applied while it was on its way). An
    /// arrival numbered after `S`, or without a number (a mutation's answer, a catch-up, a local
    /// change, another connection's commit), may be newer than the page: it wins.
    ///
    /// The client's own last applied sequence (``SocialClient/lastEventSequence``) would not do
    /// for `S`: it is also a point the page saw, but it lags the server by exactly the events on
    /// their way, the late ones this rule is about, and would leave them winning. The cache keeps
    /// a late arrival's copy (the page does not overwrite rows written since its request), until
    /// the events that follow it, numbered up to the page's read, bring it up to date.
    private var arrivals: [String: Arrival] = [:]
    /// The catch-up under way, canceled by ``dispose()``.
    private var catchUpTask: Task<Void, Never>?
    /// The waits before a catch-up the server failed is tried again, on the client's
    /// ``SocialClient/retryPolicy`` (the state machine says when to wait and when to stop).
    private let catchUpRetries = RetrySchedule()

    init(client: SocialClient, types: Set<ChannelType>?, pageSize: Int) {
        precondition(pageSize > 0, "a page holds at least one channel")
        self.client = client
        self.query = .channels(types: types)
        self.pageSize = pageSize
        guard state.start() == .start else { return }
        client.addChatListener(self)
        client.store.addCommitObserver(self)
    }

    // MARK: Paging

    /// Loads the next page: cached channels join the list at once, then the server's page
    /// replaces them (the cache is cleared of channels the server no longer lists there).
    /// Returns the page, most recently active first.
    ///
    /// The server's page stands for its part of the list: a channel shown there from the cache
    /// (by an earlier page the server failed, say) that the page does not return leaves the list
    /// and the cache. Changes that come while the page loads and may be newer than it win: the
    /// page neither overwrites nor removes the channels they touched, and a changed channel the
    /// page brought into range joins the list, reported as added. A real-time event the server
    /// sent before it read the page (numbered no later than the server's latest sequence, asked
    /// just before the page) is older than the page, which wins over it.
    ///
    /// When the server fails, returns the cached page if there is one (``hasMore`` stays true),
    /// else throws the server's error.
    ///
    /// - Throws: ``ChatError/disposed``, ``ChatError/loadInProgress`` or
    ///   ``ChatError/noMorePages``; else the server's error as above.
    @discardableResult
    public func loadMore() async throws -> [Channel] {
        if case .refuse(let error) = state.pageRequested() { throw error }
        // From here on, the changes that come are newer than what the cache read, and may be newer
        // than what the page returns: they are recorded in `arrivals` (see there which win).
        arrivals = [:]
        defer {
            state.pageEnded()
            arrivals = [:]
        }
        let start = channels.last.map(Self.position(of:))
        let cacheQuery = query.cacheQuery
        let size = pageSize
        let cached = (try? await client.store.read { try Channel.read(cacheQuery, after: start, limit: size, from: $0) }) ?? []
        let next = state.cachePageRead()
        guard case .readServerPage(let cursor) = next else {
            throw ChatError.disposed
        }
        for channel in cached where arrivals[channel.id] == nil { insert(channel) }
        reportJoined()
        let pageStart = state.paging.end
        let page: RemotePage<Channel>
        let sequence: Int64
        let mark = client.store.markWrites()
        defer { mark.end() }
        do {
            // Asked before the page, so that the page saw every change numbered up to it.
            sequence = try await client.api.latestSequence()
            page = try await client.api.fetchPage(query, cursor: cursor, limit: size)
            try await replace(page, after: pageStart, since: mark)
        } catch {
            if case .refuse(let refusal) = state.serverPageFailed() { throw refusal }
            guard !cached.isEmpty else { throw error }
            return cached.compactMap { channel in channels.first { $0.id == channel.id } }
        }
        let end = page.nextCursor == nil ? nil : page.records.last.map(Self.place(of:))
        let read = state.serverPageRead(cursor: page.nextCursor, end: end, sequence: sequence, connected: client.isConnected)
        if case .refuse(let refusal) = read { throw refusal }
        // The page is as new as the changes numbered up to `sequence`: it wins over what they brought.
        arrivals = arrivals.filter { !$0.value.isSeen(byPageAt: sequence) }
        // The page stands for its whole range of the list: what it does not return there is gone,
        // unless a change that came meanwhile says otherwise.
        let returned = Set(page.records.map(\.id))
        channels.removeAll { [arrivals] channel in
            Self.lies(channel, after: pageStart, through: end) && !returned.contains(channel.id) && arrivals[channel.id] == nil
        }
        for channel in page.records where arrivals[channel.id] == nil { insert(channel) }
        reportJoined()
        return channels.filter { returned.contains($0.id) }
    }

    /// ``loadMore()`` with a completion handler.
    public func loadMore(completionHandler: @escaping @MainActor ([Channel]?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await loadMore(), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// Writes a server page to the cache and deletes the cached channels it shows are gone: those
    /// listed between where the server's previous page ended and the page's last channel (or
    /// beyond, when the page was the last) that it did not return. Channels written since `mark`
    /// (taken before the request went out) are newer than the page, whether the collection heard
    /// of them yet (`arrivals`) or not: they are kept as they are.
    private func replace(_ page: RemotePage<Channel>, after place: Place?, since mark: WriteMark) async throws {
        let cacheQuery = query.cacheQuery
        let start = place.map { (sortValue: SQLiteValue.real($0.activity), id: $0.id) }
        let end = page.nextCursor == nil ? nil : page.records.last.map(Self.position(of:))
        try await client.store.write { transaction in
            try transaction.storeServerPage(page.records, of: cacheQuery, after: start, through: end, since: mark)
        }
    }

    /// Adds the channels that changes brought during a load and that the load's pages brought
    /// into the list's range, reported as added, then publishes the list.
    private func reportJoined() {
        var joined: [Channel] = []
        for (id, arrival) in arrivals {
            guard let channel = arrival.channel, !channels.contains(where: { $0.id == id }), isInRange(channel) else { continue }
            insert(channel)
            joined.append(channel)
        }
        report(added: joined.sorted(by: Self.precedes), updated: [], deleted: [], source: .event)
    }

    /// A change that came while a page loaded (see `arrivals`).
    private struct Arrival {
        /// The channel as the change left it; nil when it left the list.
        var channel: Channel?
        /// The sequence number of the real-time event that made the change; nil when none did.
        var sequence: Int64?

        /// Whether a server page read once the server's latest sequence was `pageSequence` shows
        /// this change or a newer one: an event numbered no later made it.
        func isSeen(byPageAt pageSequence: Int64) -> Bool {
            sequence.map { $0 <= pageSequence } ?? false
        }
    }

    // MARK: The list

    /// A channel's place in the query's order, as keyset reads take it.
    nonisolated static func position(of channel: Channel) -> (sortValue: SQLiteValue, id: String) {
        (.real(channel.lastActivityAt), channel.id)
    }

    /// A channel's place in the list, as the server's pages were cut: its last activity and its id.
    typealias Place = ChannelCollectionState.Place

    nonisolated static func place(of channel: Channel) -> Place {
        Place(activity: channel.lastActivityAt, id: channel.id)
    }

    /// Whether `channel` lies in the part of the list a server page stood for: after `start` (nil:
    /// from the top) and up to `end` included (nil: to the bottom).
    nonisolated static func lies(_ channel: Channel, after start: Place?, through end: Place?) -> Bool {
        let place = place(of: channel)
        if let start, !(place < start) { return false }
        if let end, place < end { return false }
        return true
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
        guard state.dispose() == .stop else { return }
        delegate = nil
        client.removeChatListener(self)
        client.store.removeCommitObserver(self)
        catchUpTask?.cancel()
        catchUpTask = nil
        catchUpRetries.cancel()
        channels = []
        arrivals = [:]
    }
}

extension ChannelCollection: ChatConnectionListener {
    /// Applies a committed change (see `storeDidCommit(_:)`), reported with its source.
    func apply(_ change: ChatChange) {
        guard state.changeCommitted(sequence: change.sequence) == .apply else { return }
        let isLoading = state.paging.isLoading
        var added: [Channel] = []
        var updated: [Channel] = []
        var deleted: [String] = []
        for case .channel(let channel) in change.upserts {
            if isLoading { arrivals[channel.id] = Arrival(channel: matches(channel) ? channel : nil, sequence: change.sequence) }
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
        if isLoading {
            for key in change.removals where key.kind == .channel { arrivals[key.id] = Arrival(channel: nil, sequence: change.sequence) }
        }
        for key in change.removals where key.kind == .channel && channels.contains(where: { $0.id == key.id }) {
            channels.removeAll { $0.id == key.id }
            deleted.append(key.id)
        }
        report(added: added, updated: updated, deleted: deleted, source: change.source)
    }

    func clientDidConnect() {
        perform(state.connected())
    }

    func clientDidDisconnect() {
        perform(state.disconnected())
    }

    /// Runs what the state machine asks for when the connection comes back or goes, or a catch-up
    /// failed: a catch-up, or the wait for its retry (see ``SocialClient/retryPolicy``), which a
    /// catch-up or a dropped connection ends.
    private func perform(_ action: ChannelCollectionState.Action) {
        switch action {
        case .catchUp(let since):
            catchUpRetries.cancel()
            catchUpTask = Task { [weak self] in _ = await self?.catchUp(since: since) }
        case .retryCatchUpLater:
            catchUpRetries.schedule(client.retryPolicy, for: self) { $0.perform($0.state.retryDue()) }
        case .stopRetrying:
            catchUpRetries.cancel()
        case .none, .refuse, .start, .readCachePage, .readServerPage, .apply, .readExternal, .commitCatchUp, .stop:
            break
        }
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

    /// Applies the channels' change log since the sync point in one write, reported with the
    /// source ``MessageEventSource/changelog``.
    private func catchUp(since start: Int64) async {
        let reader = ChangeLogReader(api: client.api, scope: .channels, pageSize: Self.changeLogPageSize, batching: .wholeLog)
        let outcome = await reader.read(since: start) { log in
            // Disposed meanwhile: the catch-up is abandoned.
            guard state.catchUpRead() == .commitCatchUp else { throw CancellationError() }
            try await client.commit(log.change(source: .changelog))
        }
        if case .caughtUp(let through) = outcome {
            catchUpRetries.reset()
            perform(state.catchUpFinished(through: through, connected: client.isConnected))
        } else {
            // The next reconnection tries again from the same point, and so does a retry after a
            // wait while the client is not known to be offline (the server failed, and the
            // connection may stay up).
            perform(state.catchUpFailed(connected: !client.isKnownOffline))
        }
    }

    /// How many changes one change-log request asks for.
    static let changeLogPageSize = 100
}
