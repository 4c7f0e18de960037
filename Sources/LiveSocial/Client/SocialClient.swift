import Foundation
import LiveRepository

/// The signed-in user's view of a social and chat backend: a local cache kept in sync with a
/// ``SocialAPI``, and the repositories that hand out live objects and collections over it.
///
/// ```swift
/// let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada",
///                               cache: .file(cacheURL))
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
    /// The server sequence number of the newest real-time event applied to the cache.
    public private(set) var lastEventSequence: Int64 = 0
    /// Whether the real-time connection is up, as the last connection event said.
    public private(set) var isConnected = false
    private var realtimeTask: Task<Void, Never>?
    /// Records created locally under a ``localID()`` whose create is with the server, by local id.
    /// The real-time event of the server's copy can arrive before the mutation's answer: it
    /// replaces the local copy in the same write, so both are never shown together.
    private var pendingCreates: [String: any CacheRecord] = [:]

    /// Creates a client over a cache, creating or migrating it, and rebuilding it if damaged
    /// (see `LiveStore.recovery`).
    public init(
        api: any SocialAPI, userId: String, cache: SQLiteConnection.Location,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        self.api = api
        self.userId = userId
        self.store = try LiveStore(location: cache, migrations: LiveSocialSchema.migrations)
        self.now = now
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

    /// Applies one real-time event to the cache (batched with the others waiting).
    public func apply(_ event: SocialEvent) {
        if let sequence = event.sequence { lastEventSequence = max(lastEventSequence, sequence) }
        switch event {
        case .created(let record, _):
            let replaced = pendingCreates.first { record.isServerCopy(of: $0.value) }?.key
            if let replaced { pendingCreates[replaced] = nil }
            store.enqueueWrite { transaction in
                try record.store(in: transaction)
                if let replaced { try transaction.delete(record.kind.recordType, id: replaced) }
            }
        case .updated(let record, _):
            store.enqueueWrite { try record.store(in: $0) }
        case .deleted(let key, _):
            store.enqueueWrite { try key.remove(from: $0) }
        case .connected:
            isConnected = true
        case .disconnected:
            isConnected = false
        }
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
    /// When the server fails, the local record stays, marked ``SyncState/error``, or a local
    /// removal is undone, or (for a record without a sync state) the change is rolled back; the
    /// error is rethrown.
    ///
    /// - Parameters:
    ///   - local: the record as it should look now (nil for changes made only by the server).
    ///   - removing: a record removed locally at once (restored if the server fails).
    @discardableResult
    func mutate<Record: CacheRecord>(
        _ mutation: SocialMutation, local: Record? = nil, removing: Record? = nil,
        syncState: WritableKeyPath<Record, SyncState>? = nil
    ) async throws -> SocialMutationResult {
        let pending = local.map { record -> Record in
            var copy = record
            if let syncState { copy[keyPath: syncState] = .syncing }
            return copy
        }
        let removedID = removing?.id
        let createsLocally = pending.map { $0.id.hasPrefix(Self.localIDPrefix) } ?? false
        if let pending, createsLocally { pendingCreates[pending.id] = pending }
        defer { if let pending, createsLocally { pendingCreates[pending.id] = nil } }
        // Without a sync state to show a failure, the cached record before the change is kept
        // to roll back to.
        let keepsPrevious = syncState == nil
        let previous = try await store.write { transaction -> Record? in
            let previous = try pending.flatMap { keepsPrevious ? try transaction.record(Record.self, id: $0.id) : nil }
            if let pending { try transaction.upsert(pending) }
            if let removedID { try transaction.delete(Record.self, id: removedID) }
            return previous
        }
        do {
            let result = try await api.perform(mutation)
            try await store.write { transaction in
                for record in result.records { try record.store(in: transaction) }
                for key in result.deleted { try key.remove(from: transaction) }
                // A record the server stored under its own id replaces the local one.
                if let pending, !result.records.contains(where: { $0.id == pending.id }) {
                    try transaction.delete(Record.self, id: pending.id)
                }
            }
            return result
        } catch {
            // A local copy a real-time event already replaced by the server's stays replaced (the
            // server made the change; only its answer was lost).
            let replacedByServer = createsLocally && pending.map { pendingCreates[$0.id] == nil } ?? false
            // Without a sync state to show the failure, the local change is rolled back instead.
            let failed = replacedByServer ? nil : syncState.flatMap { syncState in
                pending.map { record -> Record in var copy = record; copy[keyPath: syncState] = .error; return copy }
            }
            let restored = removing ?? (syncState == nil ? previous : nil)
            let discarded = syncState == nil && previous == nil ? pending?.id : nil
            _ = try? await store.write { transaction in
                if let failed { try transaction.upsert(failed) }
                if let discarded { try transaction.delete(Record.self, id: discarded) }
                if let restored { try transaction.upsert(restored) }
            }
            throw error
        }
    }

    /// A new local id for a record the server has not seen yet.
    func localID() -> String { Self.localIDPrefix + UUID().uuidString.lowercased() }

    private static let localIDPrefix = "local-"
}
