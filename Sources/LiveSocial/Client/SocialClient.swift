import Foundation
import LiveRepository

/// The signed-in user's view of a social and chat backend: a local cache kept in sync with a
/// ``SocialAPI``, and the repositories that hand out live objects and collections over it.
///
/// ```swift
/// let client = try await SocialClient.open(api: server.connection(userId: "ada"), userId: "ada",
///                                          cache: .file(cacheURL))
/// client.startRealtime()
/// let messages = client.messages.messages(channelId: "general")
/// ```
///
/// Everything here runs on the main actor; the cache does its I/O on its own queue.
@MainActor
public final class SocialClient {
    /// The backend.
    public let api: any SocialAPI
    /// The signed-in user.
    public let userId: String
    /// The local cache.
    public let store: LiveStore
    /// The clock that stamps local changes (seconds since 1970), injectable for tests.
    public let now: @Sendable () -> Double
    /// The server sequence number of the newest real-time event or change-log page whose write
    /// has committed to the cache: the client's sync point. Chat collections keep sync points of
    /// their own.
    ///
    /// When real time reports ``SocialEvent/connected`` again after a disconnection, the client
    /// catches its cache up from this point with `SocialAPI.changes(since:limit:scope:)` over
    /// every kind, so live objects and collections show what changed meanwhile (see
    /// <doc:DataFlow>). It is 0 until the first event: a client that never applied one has no
    /// point to catch up from.
    public internal(set) var lastEventSequence: Int64 = 0
    /// Whether the real-time connection is up, as the last connection event said.
    public private(set) var isConnected = false
    /// Whether messages whose sending failed for a transient reason (offline, a server failure)
    /// stay pending and are sent again by themselves; true by default. When false, such messages
    /// become failed at once and wait for ``MessageRepository/resend(_:)``.
    ///
    /// When on, a message that found the server offline (``SocialAPIError/offline``) is sent
    /// again when the connection comes back. One the server failed to store
    /// (``SocialAPIError/serverFailure(_:)``) is sent again after a wait that grows with each
    /// failure in a row (``retryPolicy``), as long as the client does not know it is
    /// offline: a server can fail while its real-time connection stays up (its database
    /// restarting behind it, say), and then no reconnection ever comes. A reconnection sends
    /// at once, whatever the wait, and starts the waits over, as a sent message does. Either way
    /// the messages are sent one at a time, oldest first, and never two at once.
    public var autoResendMessages = true
    /// The waits after server failures, and the clock they are measured on; read at each
    /// failure. They space the automatic resends of pending messages (see
    /// ``autoResendMessages``) and the tries of a catch-up the server failed while the
    /// connection stayed up, the client-wide one and each chat collection's own (a reconnection
    /// tries again at once).
    public var retryPolicy = RetryPolicy()
    private var realtimeTask: Task<Void, Never>?
    /// Whether real time told the connection state since it started.
    private var knowsConnectionState = false
    /// Chat collections to tell about the connection, held weakly (they hear committed changes
    /// through the store's change hub).
    var chatListeners: [WeakChatListener] = []
    /// The queue that sends the user's messages one at a time; made on first use.
    private(set) lazy var outbox = MessageOutbox(client: self)
    /// Records created locally under a ``localID()`` whose create is with the server, by local id.
    /// The real-time event of the server's copy can arrive before the mutation's answer: it
    /// replaces the local copy in the same write, so both are never shown together.
    private var pendingCreates: [String: any CacheRecord] = [:]
    /// How many of this run's mutations hold each record `syncing`, by table and id: settling the
    /// changes an earlier run left unfinished leaves these alone.
    var recordsInFlight: [String: Int] = [:]
    /// Whether the changes an earlier run left unfinished are settled (or being settled).
    var interruptedChangesSettled = false
    /// The catch-up through the change log after a reconnection (see `catchUpAfterReconnection()`).
    var catchUpState = CatchUpState()

    /// Creates a client over a cache, creating or migrating it, and rebuilding it if damaged
    /// (see `LiveStore.recovery`).
    ///
    /// It opens the cache on the main actor, and can hold it for a while (migrations, a file
    /// another process is writing, a recovery): an app should use
    /// ``open(api:userId:cache:now:)``, which opens it off the main actor.
    public init(
        api: any SocialAPI, userId: String, cache: SQLiteConnection.Location,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        self.api = api
        self.userId = userId
        self.store = try LiveStore(location: cache, migrations: LiveSocialSchema.migrations)
        self.now = now
    }

    /// Creates a client over a cache opened off the main actor (see `LiveStore.open`), creating
    /// or migrating it, and rebuilding it if damaged (see `LiveStore.recovery`).
    ///
    /// ```swift
    /// let client = try await SocialClient.open(api: api, userId: "ada", cache: .file(cacheURL))
    /// ```
    public static func open(
        api: any SocialAPI, userId: String, cache: SQLiteConnection.Location,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) async throws -> SocialClient {
        let store = try await LiveStore.open(location: cache, migrations: LiveSocialSchema.migrations)
        return SocialClient(api: api, userId: userId, store: store, now: now)
    }

    /// Creates a client over an open cache.
    public init(api: any SocialAPI, userId: String, store: LiveStore,
                now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.api = api
        self.userId = userId
        self.store = store
        self.now = now
    }

    // MARK: Repositories

    /// Users and their profiles.
    public var users: UserRepository { UserRepository(client: self) }
    /// Posts in user and community feeds.
    public var posts: PostRepository { PostRepository(client: self) }
    /// Comments and replies on posts.
    public var comments: CommentRepository { CommentRepository(client: self) }
    /// Reactions on posts, comments and messages.
    public var reactions: ReactionRepository { ReactionRepository(client: self) }
    /// Followers and following.
    public var follows: FollowRepository { FollowRepository(client: self) }
    /// Chat channels.
    public var channels: ChannelRepository { ChannelRepository(client: self) }
    /// Messages in channels.
    public var messages: MessageRepository { MessageRepository(client: self) }
    /// Members of channels.
    public var channelMembers: ChannelMemberRepository { ChannelMemberRepository(client: self) }
    /// Communities.
    public var communities: CommunityRepository { CommunityRepository(client: self) }
    /// Members of communities.
    public var communityMembers: CommunityMemberRepository { CommunityMemberRepository(client: self) }

    // MARK: Real time

    /// Starts applying the backend's real-time events to the cache, so every live object and
    /// collection that shows a changed record updates. Calling it again does nothing.
    public func startRealtime() {
        guard realtimeTask == nil else { return }
        knowsConnectionState = false
        let stream = api.events()
        realtimeTask = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                self.apply(event)
            }
        }
    }

    /// Stops applying real-time events.
    public func stopRealtime() {
        realtimeTask?.cancel()
        realtimeTask = nil
    }

    /// Whether the client knows the connection is down: real time is running and its last
    /// connection event was ``SocialEvent/disconnected``. Before the first one, it does not know.
    var isKnownOffline: Bool { realtimeTask != nil && knowsConnectionState && !isConnected }

    /// Applies one real-time event to the cache (batched with the others waiting).
    ///
    /// While the client catches up after a reconnection, change events wait until the change log
    /// is written; then those newer than the log apply (older ones are in the log already).
    public func apply(_ event: SocialEvent) {
        // During a catch-up, change events wait for the change log (which may hold them already).
        if catchUpState.isRunning, event.sequence != nil {
            catchUpState.held.append(event)
            return
        }
        var change = ChatChange(source: .event, sequence: event.sequence)
        switch event {
        case .created(let record, _):
            change.upserts = [record]
            change.removals = replacePendingCreate(with: record)
        case .updated(let record, _):
            change.upserts = [record]
        case .deleted(let key, _):
            change.removals = [key]
        case .connected, .disconnected:
            knowsConnectionState = true
            let connected = event == .connected
            guard connected != isConnected else { return }
            isConnected = connected
            if connected { catchUpAfterReconnection() }
            connectionDidChange(connected: connected)
            return
        }
        let sequence = event.sequence ?? 0
        // The sequence counts as applied once its write has committed.
        enqueueCommit(change) { [weak self] error in
            guard error == nil, let self else { return }
            self.lastEventSequence = max(self.lastEventSequence, sequence)
        }
    }

    /// The key of the local copy that `record`, from the server, replaces: a record created
    /// locally whose create is still with the server, now forgotten as pending. Empty when none.
    func replacePendingCreate(with record: SocialRecord) -> [SocialRecordKey] {
        guard let replaced = pendingCreates.first(where: { record.isServerCopy(of: $0.value) })?.key else { return [] }
        pendingCreates[replaced] = nil
        return [SocialRecordKey(record.kind, replaced)]
    }

    // MARK: Plumbing for repositories

    func liveObject<Record: CacheRecord>(_ type: Record.Type, id: String) -> LiveObject<Record> {
        let api = self.api
        return LiveObject(store: store, id: id) { try await api.fetch(Record.self, id: id) }
    }

    /// A live collection of `query`, whose server pages come from `serverQuery`: the same
    /// records in the order that starts at the anchor (the reversed query for `.end`).
    func liveCollection<Record: CacheRecord>(
        _ query: SocialQuery<Record>, pageSize: Int, anchor: CollectionAnchor = .start,
        serverQuery: SocialQuery<Record>? = nil
    ) -> LiveCollection<Record> {
        let api = self.api
        let pages = serverQuery ?? query
        return LiveCollection(store: store, query: query.cacheQuery, pageSize: pageSize, anchor: anchor) { cursor, limit in
            try await api.fetchPage(pages, cursor: cursor, limit: limit)
        }
    }

    /// Runs a mutation the way every repository does: the local change first (observers see it
    /// at once, marked ``SyncState/syncing``), then the server, then its answer in the cache.
    ///
    /// When the server fails, the error is rethrown and the cache keeps one of: the local record
    /// marked ``SyncState/error`` (a record with a sync state); else the record as it was before
    /// the change (a removal or a profile update is undone); else nothing (a new record without a
    /// sync state is dropped).
    ///
    /// - Parameters:
    ///   - local: the record as it should look now (nil for changes made only by the server).
    ///   - removingID: the id of a record of the same type removed locally at once.
    ///   - syncState: where the record keeps its sync state, if it has one.
    @discardableResult
    func mutate<Record: CacheRecord>(
        _ mutation: SocialMutation, local: Record? = nil, removingID: String? = nil, of type: Record.Type = Record.self,
        syncState: WritableKeyPath<Record, SyncState>? = nil
    ) async throws -> SocialMutationResult {
        let pending = local.map { record -> Record in
            var copy = record
            if let syncState { copy[keyPath: syncState] = .syncing }
            return copy
        }
        let createsLocally = pending.map { $0.id.hasPrefix(Self.localIDPrefix) } ?? false
        if let pending, createsLocally { pendingCreates[pending.id] = pending }
        defer { if let pending, createsLocally { pendingCreates[pending.id] = nil } }
        // The record as it was, read in the same transaction that changes it: what a failure
        // restores.
        let changedID = pending?.id ?? removingID
        let inFlight = changedID.map { Self.inFlightKey(Record.self, id: $0) }
        if let inFlight { recordsInFlight[inFlight, default: 0] += 1 }
        defer {
            if let inFlight {
                recordsInFlight[inFlight, default: 1] -= 1
                if recordsInFlight[inFlight] == 0 { recordsInFlight[inFlight] = nil }
            }
        }
        // The keys of removed records, for the chat collections, which hear each write's change.
        let key = { @Sendable (id: String) -> [SocialRecordKey] in
            SocialRecordKind(of: Record.self).map { [SocialRecordKey($0, id)] } ?? []
        }
        let local = ChatChange(
            upserts: pending.flatMap { SocialRecord($0) }.map { [$0] } ?? [], removals: removingID.map(key) ?? [],
            source: .local)
        let previous = try await write { transaction -> (Record?, ChatChange?) in
            let previous = try changedID.flatMap { try transaction.record(Record.self, id: $0) }
            if let pending { try transaction.upsert(pending) }
            if let removingID {
                try transaction.delete(Record.self, id: removingID)
                try RemovalJournal.note(Record.table.name, id: removingID, in: transaction)
            }
            return (previous, local)
        }
        do {
            let result = try await api.perform(mutation)
            let replaced = pending.map { pending in result.records.contains { $0.id == pending.id } ? [] : key(pending.id) } ?? []
            let answer = ChatChange(upserts: result.records, removals: result.deleted + replaced, source: .api)
            try await write { [userId] transaction in
                for record in result.records { try record.store(in: transaction, ownerId: userId) }
                for key in result.deleted { try key.remove(from: transaction) }
                if let removingID { try RemovalJournal.clear(Record.table.name, id: removingID, in: transaction) }
                // A record the server stored under its own id replaces the local one.
                if let pending, !result.records.contains(where: { $0.id == pending.id }) {
                    try transaction.delete(Record.self, id: pending.id)
                }
                return ((), answer)
            }
            return result
        } catch {
            // A local copy a real-time event already replaced by the server's stays replaced (the
            // server made the change; only its answer was lost).
            let replacedByServer = createsLocally && pending.map { pendingCreates[$0.id] == nil } ?? false
            if !replacedByServer {
                let failed = syncState.flatMap { syncState in
                    pending.map { record -> Record in var copy = record; copy[keyPath: syncState] = .error; return copy }
                }
                let removal = pending.map { key($0.id) } ?? []
                _ = try? await write { transaction -> (Void, ChatChange?) in
                    var change = ChatChange(source: .local)
                    if let removingID { try RemovalJournal.clear(Record.table.name, id: removingID, in: transaction) }
                    if let failed {
                        try transaction.upsert(failed)
                        change.upserts = SocialRecord(failed).map { [$0] } ?? []
                    } else if let previous {
                        try transaction.upsert(previous)
                        change.upserts = SocialRecord(previous).map { [$0] } ?? []
                    } else if let pending {
                        try transaction.delete(Record.self, id: pending.id)
                        change.removals = removal
                    }
                    return ((), change)
                }
            }
            throw error
        }
    }

    /// A new local id for a record the server has not seen yet.
    func localID() -> String { Self.localIDPrefix + UUID().uuidString.lowercased() }

    static let localIDPrefix = "local-"
}
