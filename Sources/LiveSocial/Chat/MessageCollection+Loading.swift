import LiveRepository

extension MessageCollection {
    /// A handler of a start or a page: the messages in the order of ``MessageListParams/reverse``,
    /// or nil and the error.
    public typealias MessageHandler = @MainActor ([Message]?, (any Error)?) -> Void

    // MARK: Starting

    /// Opens the collection at ``startingPoint``: reads the cached messages around it, then asks
    /// the server, whose messages replace the cached ones (the cache is cleared for the range the
    /// server answered for), then follows every change.
    ///
    /// - Parameters:
    ///   - initPolicy: how the cache and the server combine; only ``MessageCollectionInitPolicy/cacheAndReplaceByApi``.
    ///   - cacheResultHandler: called first, with the cached messages (possibly out of date), or
    ///     with the cache's error.
    ///   - apiResultHandler: called next, with the server's messages, which replace the cached
    ///     ones, or with the server's error (the cached messages then stay). When the collection
    ///     started offline, it loads from the server once the connection is back and reports the
    ///     differences to the delegate with the source ``MessageEventSource/api``.
    ///
    /// Calling it twice calls both handlers with ``ChatError/alreadyStarted``; after
    /// ``dispose()``, with ``ChatError/disposed``.
    public func startCollection(
        initPolicy: MessageCollectionInitPolicy = .cacheAndReplaceByApi,
        cacheResultHandler: MessageHandler? = nil, apiResultHandler: MessageHandler? = nil
    ) {
        if case .refuse(let refusal) = state.start() {
            cacheResultHandler?(nil, refusal)
            apiResultHandler?(nil, refusal)
            return
        }
        client.addChatListener(self)
        client.store.addCommitObserver(self)
        run { collection in
            await collection.loadFromCache(then: cacheResultHandler)
            await collection.loadFromServer(then: apiResultHandler, reportingDifferences: false)
        }
    }

    private func loadFromCache(then handler: MessageHandler?) async {
        let (previous, next) = (params.previousResultSize, params.nextResultSize)
        let channelId = self.channelId
        let older = params.query(channelId: channelId, newestFirst: true).cacheQuery
        let newer = params.query(channelId: channelId, newestFirst: false).cacheQuery
        let (olderStart, newerStart) = startPositions
        let userId = client.userId
        let result: Result<([Message], [Message], [Message], Channel?), any Error>
        // The read is a snapshot: changes committed meanwhile (a pending message's server copy,
        // say) are recorded in `arrivals` and win over it below.
        loadsInFlight += 1
        defer {
            loadsInFlight -= 1
            if loadsInFlight == 0 { arrivals = [:] }
        }
        do {
            result = .success(try await client.store.read { connection in
                let locals = try Message.local(of: userId, in: channelId, from: connection)
                let before = try Self.listed(older, after: olderStart, limit: previous + 1, skipping: locals, from: connection)
                let after = try Self.listed(newer, after: newerStart, limit: next + 1, skipping: locals, from: connection)
                return (before, after, locals, try Channel.read(id: channelId, from: connection))
            })
        } catch {
            result = .failure(error)
        }
        guard !isDisposed else { return }
        switch result {
        case .success(let (before, after, locals, channel)):
            channelValue = channel
            // A pending copy whose server copy committed meanwhile is sent: it is not pending
            // again. One sent meanwhile is already listed, newer than the snapshot's.
            let sentMeanwhile = Set(arrivals.values.compactMap { $0 }.filter { $0.userId == userId }.map(\.clientRequestId))
            for local in locals where params.matches(local) && !sentMeanwhile.contains(local.clientRequestId) {
                if self.locals[local.clientRequestId] == nil { self.locals[local.clientRequestId] = params.project(local) }
            }
            succeeded = Self.merge(before.prefix(previous), after.prefix(next)).map(params.project)
            // The cache may lack messages: without a message beyond a side, that side ends at
            // what was loaded, and only the server can say whether more exist.
            let olderBound: HistoryBound = before.count > previous ? .excluding(MessagePosition(of: before[previous]))
                : .including(succeeded.first.map(MessagePosition.init(of:)) ?? olderStart)
            let newerBound: HistoryBound
            if after.count > next {
                newerBound = .excluding(MessagePosition(of: after[next]))
            } else if startingPoint >= client.now() {
                newerBound = .open
            } else {
                newerBound = .including(succeeded.last.map(MessagePosition.init(of:)) ?? newerStart)
            }
            state.cacheRead(HistoryRange(older: olderBound, newer: newerBound))
            _ = mergeArrivals()
            publish()
            handler?(succeededMessages, nil)
        case .failure(let error):
            handler?(nil, error)
        }
    }

    /// Asks the server for the messages around the starting point and replaces the list (and the
    /// cache's range) with them. When `reportingDifferences`, tells the delegate what changed.
    func loadFromServer(then handler: MessageHandler?, reportingDifferences: Bool) async {
        let (previous, next) = (params.previousResultSize, params.nextResultSize)
        let (olderStart, newerStart) = startPositions
        beginLoad()
        defer { endLoad() }
        let mark = client.store.markWrites()
        defer { mark.end() }
        do {
            let api = client.api
            let sequence = try await api.latestSequence()
            async let channel = api.fetch(Channel.self, id: channelId)
            async let before = api.fetchMessages(params.query(channelId: channelId, newestFirst: true), after: olderStart, limit: previous + 1)
            async let after = api.fetchMessages(params.query(channelId: channelId, newestFirst: false), after: newerStart, limit: next + 1)
            let (olderPage, newerPage, serverChannel) = try await (before, after, channel)
            try await replace(olderPage, after: olderStart, newestFirst: true, keeping: previous, channel: serverChannel, since: mark)
            try await replace(newerPage, after: newerStart, newestFirst: false, keeping: next, channel: nil, since: mark)
            guard !isDisposed else { return }
            let old = succeeded
            state.serverRead(
                HistoryRange(older: .after(page: olderPage, keeping: previous), newer: .after(page: newerPage, keeping: next)),
                through: sequence, connected: client.isConnected)
            succeeded = []
            for message in Self.merge(olderPage.prefix(previous), newerPage.prefix(next)) { insertSucceeded(params.project(message)) }
            // Changes that came while the server answered are newer than its pages.
            _ = mergeArrivals()
            let sent = settleLocals()
            channelValue = serverChannel ?? channelValue
            // A sent message is reported once, as its pending copy updated, in the same report as
            // the differences: the snapshot that follows shows both.
            let sentIDs = Set(sent.map(\.id))
            var report = reportingDifferences
                ? differences(from: old, to: succeeded.filter { !sentIDs.contains($0.id) }) : Report(source: .api)
            if !sent.isEmpty { report.updated[.succeeded, default: []] += sent }
            deliver(report)
            handler?(succeededMessages, nil)
        } catch {
            guard !isDisposed else { return }
            state.serverFailed()
            handler?(nil, error)
        }
    }

    /// Starts recording the changes that come while the server answers a load.
    private func beginLoad() {
        loadsInFlight += 1
    }

    /// Once no load waits for the server, the user's messages the server stored meanwhile that
    /// are still beyond the loaded part leave the list: their pending copies waited for the
    /// loads, which could have brought the range to them (see `apply(_:to:)`).
    private func endLoad() {
        loadsInFlight -= 1
        guard loadsInFlight == 0 else { return }
        let arrived = arrivals
        arrivals = [:]
        var report = Report(source: .local)
        for case let message? in arrived.values where message.userId == client.userId {
            guard let local = locals.removeValue(forKey: message.clientRequestId) else { continue }
            report.deleted[local.sendingStatus, default: []].append(local)
        }
        if !report.deleted.isEmpty { deliver(report) }
    }

    /// Lets the changes that came during a load win over the pages it wrote into the list: a
    /// message that left the list is dropped, a newer copy replaces the page's, and one now in
    /// range joins. Returns the messages that joined.
    private func mergeArrivals() -> [Message] {
        var joined: [Message] = []
        for (id, arrival) in arrivals {
            let index = succeeded.firstIndex { $0.id == id }
            switch (arrival, index) {
            case (nil, let index?):
                succeeded.remove(at: index)
            case (let message?, let index?):
                succeeded[index] = message
            case (let message?, nil) where isInRange(message):
                insertSucceeded(message)
                joined.append(message)
            default:
                break
            }
        }
        return joined
    }

    /// The positions the older and newer sides start after, with ``MessageListParams/isInclusive``:
    /// messages at exactly the starting point go to the newer side, or to the older side when the
    /// newer side loads nothing.
    var startPositions: (older: MessagePosition, newer: MessagePosition) {
        let exactGoesNewer = params.nextResultSize > 0
        return (.before(startingPoint, inclusive: params.isInclusive && !exactGoesNewer),
                .after(startingPoint, inclusive: params.isInclusive && exactGoesNewer))
    }

    // MARK: Paging

    /// Loads the page of older messages: the cached ones join the list (and ``snapshot``) at once,
    /// then the server's replace them. Returns the page in the order of
    /// ``MessageListParams/reverse``.
    ///
    /// When the server fails, returns the cached page if there is one (``hasPrevious`` stays
    /// true), else throws the server's error. When the connection comes back after such a page,
    /// the collection loads from the server again, as one started offline does.
    ///
    /// - Throws: ``ChatError`` when the collection is disposed, not started, already loading
    ///   older messages, or has none to load; else the server's error as above.
    @discardableResult
    public func loadPrevious() async throws -> [Message] {
        try await loadPage(newestFirst: true)
    }

    /// Loads the page of newer messages; see ``loadPrevious()``. Once it finds the newest
    /// messages, ``hasNext`` turns false and new messages are added by themselves.
    @discardableResult
    public func loadNext() async throws -> [Message] {
        try await loadPage(newestFirst: false)
    }

    /// ``loadPrevious()`` with a completion handler.
    /// The handler is not called when the collection is disposed first.
    public func loadPrevious(completionHandler: @escaping MessageHandler) {
        call(completionHandler) { try await $0.loadPrevious() }
    }

    /// ``loadNext()`` with a completion handler.
    /// The handler is not called when the collection is disposed first.
    public func loadNext(completionHandler: @escaping MessageHandler) {
        call(completionHandler) { try await $0.loadNext() }
    }

    /// Runs a load as work ``dispose()`` cancels, and hands its result to `handler` unless the
    /// collection was disposed meanwhile (a call on a disposed collection still gets its error).
    private func call(_ handler: @escaping MessageHandler, with load: @escaping @MainActor (MessageCollection) async throws -> [Message]) {
        let disposedAlready = isDisposed
        run { collection in
            do {
                let messages = try await load(collection)
                if !collection.isDisposed { handler(messages, nil) }
            } catch {
                if disposedAlready || !collection.isDisposed { handler(nil, error) }
            }
        }
    }

    private func loadPage(newestFirst: Bool) async throws -> [Message] {
        let side: MessageCollectionState.Side = newestFirst ? .older : .newer
        if case .refuse(let refusal) = state.pageRequested(side) { throw refusal }
        defer { state.pageEnded(side) }
        // A side that opened empty pages with the default size.
        let resultSize = newestFirst ? params.previousResultSize : params.nextResultSize
        let size = resultSize == 0 ? Self.defaultPageSize : resultSize
        let edge = newestFirst ? succeeded.first : succeeded.last
        let start = edge.map(MessagePosition.init(of:)) ?? (newestFirst ? startPositions.older : startPositions.newer)
        let query = params.query(channelId: channelId, newestFirst: newestFirst)

        // The cache first.
        let cacheQuery = query.cacheQuery
        let channelId = self.channelId
        let userId = client.userId
        let cached = (try? await client.store.read { connection -> [Message] in
            let locals = try Message.local(of: userId, in: channelId, from: connection)
            return try Self.listed(cacheQuery, after: start, limit: size, skipping: locals, from: connection)
        }) ?? []
        if isDisposed { throw ChatError.disposed }
        let cachedPage = cached.map(params.project)
        for message in cachedPage { insertSucceeded(message) }
        publish()

        // Then the server.
        beginLoad()
        defer { endLoad() }
        let mark = client.store.markWrites()
        defer { mark.end() }
        let page: [Message]
        do {
            page = try await client.api.fetchMessages(query, after: start, limit: size + 1)
            try await replace(page, after: start, newestFirst: newestFirst, keeping: size, channel: nil, since: mark)
        } catch {
            if isDisposed { throw ChatError.disposed }
            guard !cachedPage.isEmpty else { throw error }
            // The side now ends at the cached page, which may have gaps (messages the cache
            // never had) and messages the server deleted while no collection followed the
            // channel: the server fills the gaps when the connection comes back.
            state.pageReadFromCache(side, through: MessagePosition(of: newestFirst ? succeeded.first! : succeeded.last!))
            publish()
            return ordered(cachedPage)
        }
        if isDisposed { throw ChatError.disposed }
        let keptIDs = Set(page.prefix(size).map(\.id))
        succeeded.removeAll { message in cachedPage.contains { $0.id == message.id } && !keptIDs.contains(message.id) }
        for message in page.prefix(size) { insertSucceeded(params.project(message)) }
        state.pageRead(side, bound: .after(page: page, keeping: size))
        // Changes that came meanwhile win over the page; those now in range were not reported yet.
        let joined = mergeArrivals()
        let sent = settleLocals()
        let kept = succeeded.filter { keptIDs.contains($0.id) }
        // A sent message that joined is reported once, as its pending copy updated; the snapshot
        // follows both reports.
        let sentIDs = Set(sent.map(\.id))
        var sentReport = Report(source: .api)
        if !sent.isEmpty { sentReport.updated[.succeeded] = sent }
        var joinedReport = Report(source: .event)
        let added = joined.filter { !sentIDs.contains($0.id) }
        if !added.isEmpty { joinedReport.added[.succeeded] = added.sorted(by: Self.precedes) }
        deliver(sentReport, publishing: false)
        deliver(joinedReport)
        return ordered(kept)
    }

    /// Drops the pending or failed copies of the user's messages the list now holds (a page
    /// brought them: sent by an earlier run whose answer was lost, or while the page loaded) and
    /// returns the server's copies. A copy whose message lies beyond the loaded part (a page's
    /// peek) stays: the outbox settles it.
    private func settleLocals() -> [Message] {
        let userId = client.userId
        return succeeded.filter { $0.userId == userId && locals.removeValue(forKey: $0.clientRequestId) != nil }
    }

    /// Messages in the order of ``MessageListParams/reverse``.
    private func ordered(_ messages: [Message]) -> [Message] {
        let sorted = messages.sorted(by: Self.precedes)
        return params.reverse ? sorted.reversed() : sorted
    }

    /// The page size of a side whose result size is zero.
    static let defaultPageSize = 20

    // MARK: Cache

    /// Writes a server page to the cache and clears the cached messages it shows are gone: those
    /// listed between `start` and the page's last kept message (or beyond, when the page was the
    /// last) that the server did not return. Pending messages and local edits are never touched,
    /// nor are the messages written since `mark` (taken before the request went out), such as a
    /// sent message's server copy that the server stored after answering the page: see
    /// ``CacheTransaction/storeServerPage(_:of:after:through:provesRange:since:storing:)``.
    private func replace(
        _ page: [Message], after start: MessagePosition, newestFirst: Bool, keeping size: Int, channel: Channel?,
        since mark: WriteMark
    ) async throws {
        let query = params.query(channelId: channelId, newestFirst: newestFirst).cacheQuery
        let end = page.count > size ? page.prefix(size).last.map(MessagePosition.init(of:)) : nil
        let userId = client.userId
        try await client.store.write { transaction in
            // A page that keeps nothing proves nothing about the cache.
            try transaction.storeServerPage(page, of: query, after: start.tuple, through: end?.tuple, provesRange: size > 0,
                                            since: mark) { messages in
                for message in messages { try SocialRecord.message(message).store(in: transaction, ownerId: userId) }
            }
            if let channel { try transaction.upsert(channel) }
        }
    }

    /// Up to `limit` cached messages of `query` after `start`, without the user's pending and
    /// failed copies (`locals`), which sort among them: the read goes past them.
    nonisolated private static func listed(
        _ query: CacheQuery<Message>, after start: MessagePosition, limit: Int, skipping locals: [Message],
        from connection: SQLiteConnection
    ) throws -> [Message] {
        let rows = try Message.read(query, within: .after(start, in: query), limit: limit + locals.count, from: connection)
        return Array(rows.filter { !$0.isPending }.prefix(limit))
    }

    /// Two sides of a window as one list, oldest first, without repeats.
    nonisolated static func merge(_ older: ArraySlice<Message>, _ newer: ArraySlice<Message>) -> [Message] {
        var seen = Set<String>()
        return (older + newer).filter { seen.insert($0.id).inserted }.sorted(by: precedes)
    }
}

extension MessagePosition {
    /// The position as the (sort value, id) pair keyset reads take.
    var tuple: (sortValue: SQLiteValue, id: String) { (.real(createdAt), id) }

}
