/// A place in a channel's history: a creation time and a message id that breaks ties.
///
/// Message lists are ordered by `(createdAt, id)`. ``SocialAPI/fetchMessages(_:after:limit:)``
/// returns the messages that come after a position in a query's order, so the same value pages
/// both ways: in a newest-first query "after" means older.
///
/// A starting point is a time, not a message: ``before(_:inclusive:)`` and
/// ``after(_:inclusive:)`` make the positions that open a list at a time, with or without the
/// messages created at exactly that time.
///
/// Positions compare in history order: by creation time, then by id.
public struct MessagePosition: Sendable, Hashable, Comparable {
    /// The creation time, in seconds since 1970.
    public var createdAt: Double
    /// The id that orders messages created at the same time.
    public var id: String

    /// Creates a position.
    public init(createdAt: Double, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The position of a message.
    public init(of message: Message) {
        self.init(createdAt: message.createdAt, id: message.id)
    }

    /// The position a newest-first query starts after to list the messages before `time`
    /// (and at it, when `inclusive`).
    public static func before(_ time: Double, inclusive: Bool) -> MessagePosition {
        MessagePosition(createdAt: time, id: inclusive ? maximumID : "")
    }

    /// The position an oldest-first query starts after to list the messages after `time`
    /// (and at it, when `inclusive`).
    public static func after(_ time: Double, inclusive: Bool) -> MessagePosition {
        MessagePosition(createdAt: time, id: inclusive ? "" : maximumID)
    }

    /// Whether `a` comes before `b` in history: by creation time, then by id.
    public static func < (a: MessagePosition, b: MessagePosition) -> Bool {
        (a.createdAt, a.id) < (b.createdAt, b.id)
    }

    /// An id greater than any id in use: the largest Unicode scalar, which sorts after every other
    /// in SQLite's byte order.
    private static let maximumID = "\u{10FFFF}"
}
