import LiveData
import LiveRepository

/// A channel's messages for a chat view, opened at a starting point: cached messages first, then
/// the server's, then every change as it happens, with the user's own messages shown from the
/// moment they are written.
///
/// ```swift
/// let collection = client.createMessageCollection(channelId: "general", startingPoint: lastRead)
/// collection.delegate = self
/// collection.startCollection(initPolicy: .cacheAndReplaceByApi, cacheResultHandler: { messages, error in
///     // messages from the local cache: show them at once
/// }, apiResultHandler: { messages, error in
///     // messages from the server: they replace the cached ones
/// })
/// ```
///
/// After the start, ``loadPrevious()`` and ``loadNext()`` page back and forth, and the
/// ``delegate`` (or ``events``) hears about messages sent, received, edited and deleted, each with
/// a ``MessageContext``. ``snapshot`` holds the whole list at every moment, for a view that simply
/// redraws. When the connection comes back, the collection catches up with the server's change
/// log; when more than ``hugeGapThreshold`` messages changed meanwhile, it reports a huge gap
/// instead, and the app makes a new collection. Call ``dispose()`` when the view goes away.
///
/// New messages are added by themselves only while ``hasNext`` is false: a collection opened
/// in the past reaches the present by paging with ``loadNext()``.
///
/// See <doc:MessageCollectionLifeCycle>.
@MainActor
public final class MessageCollection {
    /// The channel whose messages this lists.
    public let channelId: String
    /// The time the collection opened at, in seconds since 1970; `.infinity` opens at the newest messages.
    public let startingPoint: Double
    /// What the collection lists and how.
    public let params: MessageListParams
    /// How many changed messages a catch-up may bring before the collection reports a huge gap
    /// instead; 300 by default. Messages the collection already shows as the change log has them
    /// were not missed and do not count.
    public let hugeGapThreshold: Int
    /// The object told about changes; held weakly.
    public weak var delegate: (any MessageCollectionDelegate)?
    /// Every change the delegate hears, as a value: active observers receive each one in turn, an
    /// observer that was inactive receives only the latest. Draw from ``snapshot`` for the list.
    public var events: LiveData<MessageCollectionEvent> { eventData }
    /// The whole list as it is now: set after every change, start and page.
    public var snapshot: LiveData<MessageCollectionSnapshot> { snapshotData }
    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { state.isDisposed }

    let client: SocialClient
    let eventData = MutableLiveData<MessageCollectionEvent>()
    let snapshotData = MutableLiveData<MessageCollectionSnapshot>(data: MessageCollectionSnapshot())

    /// The listed messages the server stored, oldest first by (createdAt, id).
    var succeeded: [Message] = []
    /// The user's pending and failed messages in the channel, by client request id.
    var locals: [String: Message] = [:]
    var channelValue: Channel?
    /// The phase, the two ends of the loaded part of history (a message beyond them is not listed
    /// until a page brings it) and the sync point: the state machine this type drives.
    var state = MessageCollectionState()
    /// How many loads (the start's cache read and server step, pages) are waiting for an answer.
    var loadsInFlight = 0
    /// While loads wait for the server, the server copies of this channel's messages that changes
    /// brought meanwhile, by id (nil for one that left the list): newer than what a page holds, so
    /// they win over it and are never cleared from the cache as stale.
    var arrivals: [String: Message?] = [:]
    /// Running work, canceled by ``dispose()``.
    var tasks: [Int: Task<Void, Never>] = [:]
    /// The waits before a catch-up the server failed is tried again, on the client's
    /// ``SocialClient/retryPolicy`` (the state machine says when to wait and when to stop).
    let catchUpRetries = RetrySchedule()
    private var nextTaskNumber = 0

    init(client: SocialClient, channelId: String, startingPoint: Double, params: MessageListParams, hugeGapThreshold: Int) {
        precondition(params.previousResultSize >= 0 && params.nextResultSize >= 0, "result sizes cannot be negative")
        precondition(hugeGapThreshold > 0, "the huge-gap threshold must be positive")
        self.client = client
        self.channelId = channelId
        self.startingPoint = startingPoint
        self.params = params
        self.hugeGapThreshold = hugeGapThreshold
    }

    // MARK: State

    /// The messages the server stored, in the order of ``MessageListParams/reverse``.
    public var succeededMessages: [Message] { params.reverse ? succeeded.reversed() : succeeded }
    /// The user's messages waiting to be sent, oldest first; they survive a restart.
    public var pendingMessages: [Message] { localMessages(.pending) }
    /// The user's messages that failed to send, oldest first: resend or remove them.
    public var failedMessages: [Message] { localMessages(.failed) }
    /// Whether older messages can be loaded with ``loadPrevious()``.
    public var hasPrevious: Bool { state.hasPrevious }
    /// Whether newer messages can be loaded with ``loadNext()``; while true, new messages are not
    /// added by themselves.
    public var hasNext: Bool { state.hasNext }
    /// The channel, once read from the cache or the server.
    public var channel: Channel? { channelValue }

    private func localMessages(_ status: SendingStatus) -> [Message] {
        locals.values.filter { $0.sendingStatus == status }.sorted(by: Self.precedes)
    }

    /// Whether `a` comes before `b` in history: by creation time, then id.
    nonisolated static func precedes(_ a: Message, _ b: Message) -> Bool {
        MessagePosition(of: a) < MessagePosition(of: b)
    }

    /// Sets ``snapshot`` when the list changed.
    func publish() {
        guard !isDisposed else { return }
        var snapshot = MessageCollectionSnapshot()
        snapshot.succeededMessages = succeededMessages
        snapshot.pendingMessages = pendingMessages
        snapshot.failedMessages = failedMessages
        snapshot.hasPrevious = hasPrevious
        snapshot.hasNext = hasNext
        snapshot.channel = channelValue
        if snapshot != snapshotData.data { snapshotData.data = snapshot }
    }

    // MARK: The list

    /// Inserts or replaces a succeeded message at its place in history.
    func insertSucceeded(_ message: Message) {
        if let index = succeeded.firstIndex(where: { $0.id == message.id }) { succeeded.remove(at: index) }
        let index = succeeded.partitioningIndex { !Self.precedes($0, message) }
        succeeded.insert(message, at: index)
    }

    /// Whether a succeeded message falls inside the part of history the collection has loaded.
    func isInRange(_ message: Message) -> Bool {
        state.range.contains(MessagePosition(of: message))
    }

    // MARK: Work

    /// Whether work the collection started by itself (its start, a catch-up, a load after the
    /// connection came back, a page with a completion handler) is still running.
    ///
    /// Not API: it is `@_spi(Testing)` so that randomized tests can wait until the collection
    /// has settled before they compare it with the server.
    @_spi(Testing) public var hasWorkUnderWay: Bool { !tasks.isEmpty }

    /// Runs `body` as work that ``dispose()`` cancels.
    func run(_ body: @escaping @MainActor (MessageCollection) async -> Void) {
        let number = nextTaskNumber
        nextTaskNumber += 1
        tasks[number] = Task { [weak self] in
            guard let self else { return }
            await body(self)
            self.tasks[number] = nil
        }
    }

    // MARK: Disposing

    /// Stops the collection for good: it delivers nothing more, no handler of work under way is
    /// called, and it lets go of its delegate, its messages and its work. Pending messages stay in
    /// the cache and are still sent.
    ///
    /// Calling anything afterwards is safe: paging and starting fail with ``ChatError/disposed``,
    /// and disposing again does nothing.
    public func dispose() {
        guard state.dispose() == .stop else { return }
        delegate = nil
        client.removeChatListener(self)
        client.store.removeCommitObserver(self)
        for task in tasks.values { task.cancel() }
        tasks = [:]
        catchUpRetries.cancel()
        succeeded = []
        locals = [:]
        arrivals = [:]
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, which must be false for a prefix of the
    /// array and true for the rest (binary search).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
