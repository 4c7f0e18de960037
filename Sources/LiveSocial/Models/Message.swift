import LiveRepository

/// A chat message in a channel.
///
/// ## Pending messages and the client request id
///
/// Every message carries a `clientRequestId`, a UUID string the sending client makes. Until the
/// server answers, the client stores the message with `id == clientRequestId` and
/// `syncState == .syncing`. The server's copy has its own `id` and the same `clientRequestId`:
/// on the answer (or on the real-time event echoing the message, whichever comes first) the client
/// finds the pending record by `clientRequestId`, deletes it and stores the server's copy. If the
/// send fails the pending record stays with `.error`, and resending it with the same
/// `clientRequestId` is safe: the server returns the message it already stored instead of a
/// second one. ``isPending`` tells a local message from a server one.
///
/// Replies in a thread have a `parentId`; `editedAt` is set once the text has been edited.
/// ``metaArrays`` carry the sender's structured extras and ``reactions`` the server's summary of
/// who reacted how.
public struct Message: CacheRecord, Hashable {
    /// The server's id, or the client request id while the server has not stored the message.
    public var id: String
    /// The sending client's unique id for the send request; links a pending message to the server's copy.
    public var clientRequestId: String
    /// The channel the message is in.
    public var channelId: String
    /// The sender.
    public var userId: String
    /// The kind of message.
    public var type: MessageType
    /// The text, or the caption or file name of an attachment.
    public var text: String
    /// The message this one replies to in a thread, or nil.
    public var parentId: String?
    /// How many reactions it has.
    public var reactionCount: Int
    /// When the server created it (for a pending or failed message, when it was sent), in seconds
    /// since 1970.
    public var createdAt: Double
    /// When it last changed, in seconds since 1970.
    public var updatedAt: Double
    /// When the text was last edited, or nil if it never was.
    public var editedAt: Double?
    /// Whether it was deleted. Deletion is soft: the record stays, so "include deleted" lists can show it.
    public var isDeleted: Bool
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState
    /// Structured extras the sender attached, each a key with a list of values.
    public var metaArrays: [String: [String]]
    /// Who reacted with what, kept by the server; empty when no one reacted.
    public var reactions: [MessageReaction]

    /// Creates a message; see the properties for what each value means.
    public init(
        id: String,
        clientRequestId: String,
        channelId: String,
        userId: String,
        type: MessageType = .text,
        text: String,
        parentId: String? = nil,
        reactionCount: Int = 0,
        createdAt: Double,
        updatedAt: Double,
        editedAt: Double? = nil,
        isDeleted: Bool = false,
        syncState: SyncState = .synced,
        metaArrays: [String: [String]] = [:],
        reactions: [MessageReaction] = []
    ) {
        self.id = id
        self.clientRequestId = clientRequestId
        self.channelId = channelId
        self.userId = userId
        self.type = type
        self.text = text
        self.parentId = parentId
        self.reactionCount = reactionCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.editedAt = editedAt
        self.isDeleted = isDeleted
        self.syncState = syncState
        self.metaArrays = metaArrays
        self.reactions = reactions
    }

    /// The `messages` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "messages",
        columns: [
            .text("id"),
            .text("clientRequestId"),
            .text("channelId"),
            .text("userId"),
            .text("type"),
            .text("text"),
            .text("parentId", nullable: true),
            .integer("reactionCount"),
            .real("createdAt"),
            .real("updatedAt"),
            .real("editedAt", nullable: true),
            .integer("isDeleted"),
            .text("syncState"),
            .text("metaArrays"),
            .text("reactions"),
        ],
        indexes: [["channelId", "createdAt"], ["clientRequestId"], ["channelId", "userId", "createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        clientRequestId = try columns.next()
        channelId = try columns.next()
        userId = try columns.next()
        type = try columns.next()
        text = try columns.next()
        parentId = try columns.next()
        reactionCount = try columns.next()
        createdAt = try columns.next()
        updatedAt = try columns.next()
        editedAt = try columns.next()
        isDeleted = try columns.next()
        syncState = try columns.next()
        metaArrays = try columns.nextJSON(empty: [:])
        reactions = try columns.nextJSON(empty: [])
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(clientRequestId)
        values.append(channelId)
        values.append(userId)
        values.append(type)
        values.append(text)
        values.append(parentId)
        values.append(reactionCount)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(editedAt)
        values.append(isDeleted)
        values.append(syncState)
        values.appendJSON(metaArrays, empty: "{}")
        values.appendJSON(reactions, empty: "[]")
        return values.finish()
    }

    /// Whether this is a local message the server has not stored yet (its id is still the client request id).
    public var isPending: Bool { id == clientRequestId }

    /// Where sending this message stands: ``SendingStatus/pending`` or ``SendingStatus/failed``
    /// for a local message the server has not stored, ``SendingStatus/succeeded`` for every
    /// message the server has (an edit in progress does not change it).
    public var sendingStatus: SendingStatus {
        guard isPending else { return .succeeded }
        return syncState == .error ? .failed : .pending
    }
}
