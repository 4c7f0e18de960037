import Foundation
import LiveData
import LiveSocial

/// One channel's chat: its messages page by page, the user's own messages from pending to sent
/// (or failed, to resend), and the catch-up after being offline.
///
/// The messages come from a `MessageCollection` whose `snapshot` this view model follows with
/// `switchMap`: when a huge gap makes it replace the collection with a new one, ``messages``
/// simply follows the new one.
@MainActor
public final class ChatViewModel: MessageCollectionDelegate {
    /// The channel shown.
    public let channelId: String
    private let environment: SampleEnvironment
    private let hugeGapThreshold: Int
    private let collectionData = MutableLiveData<MessageCollection>()
    private let statusData = MutableLiveData(data: ScreenStatus())
    /// Whether the collection's start is under way (until the server's answer).
    private var isStarting = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []
    private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)
    private lazy var catchUps = CatchUpCounter { [weak self] total in
        self?.noticeEvents.send("caught up: \(total) message change\(total == 1 ? "" : "s") from the change log")
    }
    private var isClosed = false
    /// The texts given to ``send(_:)`` and not yet handed to the outbox, oldest first.
    private let unsent = Unsent()
    /// How many messages were given to ``send(_:)``, how many of them the collection reported
    /// stored as pending, and how many sends ended (sent or failed). The outbox stores and sends
    /// them in the order given, so the first two counts say how many of the first ones are stored.
    private var sendsGiven = 0
    private var sendsStored = 0
    private var sendsEnded = 0

    /// A queue of texts the send tasks share (held by them, so that it outlives the view model).
    private final class Unsent {
        var texts: [String] = []
    }

    /// The messages, oldest first: the server's, then the user's pending ones, then the failed ones.
    public let messages: LiveData<[MessageRow]>
    /// The channel's name.
    public let title: LiveData<String>
    /// Whether older messages can be loaded with ``loadPrevious()``.
    public let hasPrevious: LiveData<Bool>
    /// Loading, local or fresh, and the last error (of loading, or the offline wait).
    public var status: LiveData<ScreenStatus> { statusData }
    /// What just happened, each told once: a message that was not sent, a catch-up, a reload
    /// after a huge gap. Those that come while the chat is hidden are kept until it shows again.
    public var notices: LiveEvent<String> { noticeEvents }

    /// Creates the view model of a channel's chat; ``start()`` loads it.
    ///
    /// - Parameters:
    ///   - channelId: the channel.
    ///   - environment: the app's services.
    ///   - hugeGapThreshold: how many changes a catch-up may bring before the chat reloads instead.
    public init(channelId: String, environment: SampleEnvironment, hugeGapThreshold: Int = 300) {
        self.channelId = channelId
        self.environment = environment
        self.hugeGapThreshold = hugeGapThreshold
        let snapshot = collectionData.switchMap { $0?.snapshot }
        let me = environment.userId
        messages = snapshot.map { Self.rows($0 ?? MessageCollectionSnapshot(), me: me) }
        title = snapshot.map { $0?.channel?.displayName ?? channelId }.distinctUntilChanged()
        hasPrevious = snapshot.map { $0?.hasPrevious ?? false }.distinctUntilChanged()
        collectionData.data = makeCollection()
    }

    private var collection: MessageCollection? { isClosed ? nil : collectionData.data }

    private func makeCollection() -> MessageCollection {
        let collection = environment.client.createMessageCollection(
            channelId: channelId, hugeGapThreshold: hugeGapThreshold)
        collection.delegate = self
        return collection
    }

    // MARK: Loading

    /// Starts the chat at the newest messages: the cached ones at once (local), then the
    /// server's (fresh). Returns at once, loading; ``status`` tells how it goes.
    ///
    /// - Returns: a task that ends once the server has answered, or failed to (for tests; the
    ///   app does not wait).
    @discardableResult
    public func start() -> Task<Void, Never> {
        guard let collection else { return .finished }
        if isStarting { return startTask() }
        isStarting = true
        statusData.update { $0.isLoading = true }
        collection.startCollection(cacheResultHandler: { [weak self] messages, error in
            self?.statusData.update { status in
                if let error { status.error = ScreenStatus.describe(error) }
                if messages?.isEmpty == false { status.source = .local }
            }
        }, apiResultHandler: { [weak self, weak collection] _, error in
            // The answer of a collection replaced since (a huge gap) is not this chat's any more.
            guard let self, let collection, collection === collectionData.data else { return }
            statusData.update { status in
                status.isLoading = false
                if let error {
                    status.error = ScreenStatus.describe(error)
                } else {
                    status.error = nil
                    status.source = .fresh
                }
            }
            finishStart()
        })
        return startTask()
    }

    /// A task that ends when the start under way does.
    private func startTask() -> Task<Void, Never> {
        Task { @MainActor [weak self] in
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                guard let self, self.isStarting else { return waiter.resume() }
                self.startWaiters.append(waiter)
            }
        }
    }

    private func finishStart() {
        isStarting = false
        let waiters = startWaiters
        startWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Loads the page of older messages; nothing when there are none or a page is loading.
    /// Returns at once, loading; ``messages`` and ``status`` tell how it goes.
    ///
    /// - Returns: the task loading the page (for tests; the app does not wait).
    @discardableResult
    public func loadPrevious() -> Task<Void, Never> {
        guard let collection, collection.hasPrevious, statusData.data?.isLoading != true else { return .finished }
        statusData.update { $0.isLoading = true }
        return Task { [statusData] in
            do {
                _ = try await collection.loadPrevious()
                statusData.update { $0.error = nil }
            } catch {
                statusData.update { $0.error = ScreenStatus.describe(error) }
            }
            statusData.update { $0.isLoading = false }
        }
    }

    // MARK: Sending

    /// Sends `text` and returns at once: the message shows as pending as soon as its copy is in
    /// the cache (the outbox's, before anything goes to the server), then as sent, or as failed
    /// with a notice of the reason.
    ///
    /// Messages reach the server in the order they were given to this method, one after the
    /// other: the client's outbox sends them in the order it gets them, and each call's task
    /// hands it the oldest text not yet handed over, so the order does not depend on which task
    /// runs first. Leaving the chat does not stop a send.
    ///
    /// Offline, the message stays pending and is sent when the connection is back; the status
    /// says so until then.
    ///
    /// - Returns: the task sending it, which ends once the server answered or the send failed
    ///   (for tests; the app does not wait).
    @discardableResult
    public func send(_ text: String) -> Task<Void, Never> {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !isClosed else { return .finished }
        let channelId = self.channelId
        let unsent = self.unsent
        unsent.texts.append(text)
        sendsGiven += 1
        let send = deliver { try await $0.send(unsent.texts.removeFirst(), to: channelId) }
        return Task { [weak self] in
            await send.value
            self?.sendsEnded += 1
        }
    }

    // MARK: Stored sends

    /// Whether every message given to ``send(_:)`` is stored in the cache (pending, or already
    /// sent or failed): then quitting, even with `kill -9`, loses none of them. An app that quits
    /// right after a send waits for it (``messages`` changes when it becomes true); never for
    /// the server.
    ///
    /// A message is stored within a few milliseconds of its send: the outbox writes its pending
    /// copy before anything goes to the server.
    public var areSendsStored: Bool { max(sendsStored, sendsEnded) >= sendsGiven }

    /// Sends every failed message again, oldest first, and returns at once: each shows as
    /// pending, then as sent or failed.
    ///
    /// - Returns: a task that ends once every resend ended (for tests; the app does not wait).
    @discardableResult
    public func resendFailed() -> Task<Void, Never> {
        let sends = (collection?.failedMessages ?? []).map { message in deliver { try await $0.resend(message) } }
        return Task {
            for send in sends { await send.value }
        }
    }

    /// Removes every failed message, from the screen and the cache; returns at once.
    ///
    /// - Returns: the task removing them (for tests; the app does not wait).
    @discardableResult
    public func discardFailed() -> Task<Void, Never> {
        guard let failed = collection?.failedMessages, !failed.isEmpty else { return .finished }
        let messages = environment.client.messages
        return Task { [weak self] in
            do {
                _ = try await messages.removeFailed(failed)
            } catch {
                self?.statusData.update { $0.error = ScreenStatus.describe(error) }
            }
        }
    }

    /// Starts `attempt` on the message repository in a task of its own; its outcome goes to the
    /// status (offline) or the notices (a failure). The task holds the repository, not this view
    /// model: a send goes on after the chat is left.
    private func deliver(_ attempt: @escaping (MessageRepository) async throws -> Message) -> Task<Void, Never> {
        let messages = environment.client.messages
        return Task { [weak self] in
            do {
                _ = try await attempt(messages)
                self?.statusData.update { $0.error = nil }
            } catch SocialAPIError.offline {
                self?.statusData.update { $0.error = Self.offlineError + ": the message will be sent when the connection is back" }
            } catch {
                self?.noticeEvents.send("not sent: \(ScreenStatus.describe(error)) (/resend to try again)")
            }
        }
    }

    // MARK: Reading and leaving

    /// Marks the messages on screen as read, so the channel list shows no unread count for them.
    /// The view calls it whenever it shows new messages.
    public func markRead() {
        guard let channel = collection?.channel else { return }
        environment.readMarkers.markRead(channelId, messageCount: channel.messageCount)
    }

    /// Disposes of the message collection; the view model does nothing afterwards.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        collectionData.data?.dispose()
        finishStart()
    }

    static let offlineError = "offline"

    static func rows(_ snapshot: MessageCollectionSnapshot, me: String) -> [MessageRow] {
        func row(_ message: Message, _ state: MessageRow.State) -> MessageRow {
            MessageRow(
                id: message.id, sender: message.userId, text: message.isDeleted ? "(deleted)" : message.text,
                time: message.createdAt, state: state, isMine: message.userId == me)
        }
        return snapshot.succeededMessages.map { row($0, .sent) }
            + snapshot.pendingMessages.map { row($0, .pending) }
            + snapshot.failedMessages.map { row($0, .failed) }
    }

    // MARK: MessageCollectionDelegate

    /// Counts messages found by a catch-up, and marks data fresh once a collection that started
    /// offline reaches the server.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]
    ) {
        if context.source == .local, context.sendingStatus == .pending {
            // The pending copies of the user's sends, just stored by the outbox.
            sendsStored += addedMessages.filter { $0.userId == environment.userId }.count
        }
        note(addedMessages.count, context)
    }

    /// Counts messages changed while offline, found by a catch-up; clears the offline error once
    /// a message of the user's is sent.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]
    ) {
        if context.sendingStatus == .succeeded, updatedMessages.contains(where: { $0.userId == environment.userId }) {
            statusData.update { status in
                if status.error?.hasPrefix(Self.offlineError) == true { status.error = nil }
            }
        }
        note(updatedMessages.count, context)
    }

    /// Counts messages deleted while offline, found by a catch-up.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message]
    ) {
        note(deletedMessages.count, context)
    }

    /// The channel changed: the title and unread count follow through the snapshot.
    public func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, updatedChannel channel: Channel) {}

    /// The channel is gone: says so; the view leaves.
    public func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, deletedChannel channelId: String) {
        statusData.update { $0.error = "this channel was deleted" }
    }

    /// Too much was missed: replaces the collection with a new one at the newest messages.
    public func didDetectHugeGap(_ collection: MessageCollection) {
        guard !isClosed else { return }
        collection.dispose()
        collectionData.data = makeCollection()
        statusData.update { $0.source = .nothing }
        noticeEvents.send("huge gap: over \(hugeGapThreshold) changes missed; reloaded the newest messages")
        finishStart()
        start()
    }

    private func note(_ count: Int, _ context: MessageContext) {
        switch context.source {
        case .changelog:
            catchUps.add(count)
        case .api:
            statusData.update {
                $0.source = .fresh
                $0.error = nil
            }
        case .event, .local, .cache:
            break
        }
    }
}
