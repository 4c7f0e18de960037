import LiveRepository

/// A list request of the social domain: what a live collection shows.
///
/// It says the same thing twice: ``kind`` in domain terms for a remote backend, and
/// ``cacheQuery`` for the local cache. Make queries with the constrained factories, such as
/// `SocialQuery<Message>.messages(channelId:)`, so the two always agree.
///
/// ```swift
/// let recent = SocialQuery.messages(channelId: "general")   // newest first, no deleted ones
/// let replies = SocialQuery.comments(postId: post.id, parentId: comment.id)
/// ```
public struct SocialQuery<Record: CacheRecord>: Sendable, Hashable {
    /// The request in domain terms.
    public let kind: SocialQueryKind
    /// The same request as a query of the local cache.
    public let cacheQuery: CacheQuery<Record>

    /// Creates a query from both its forms; they must describe the same records in the same order.
    public init(kind: SocialQueryKind, cacheQuery: CacheQuery<Record>) {
        self.kind = kind
        self.cacheQuery = cacheQuery
    }
}

extension SocialQuery {
    /// `isDeleted = 0` unless deleted records are wanted.
    static func notDeleted(_ includeDeleted: Bool) -> [CachePredicate] {
        includeDeleted ? [] : [.equals("isDeleted", .bool(false))]
    }

    /// `column IN (values)` for a non-nil set, in a stable order so equal sets give equal queries.
    static func oneOf<Value: RawRepresentable>(_ column: String, _ values: Set<Value>?) -> [CachePredicate]
    where Value.RawValue == String {
        guard let values else { return [] }
        return [.oneOf(column, values.map(\.rawValue).sorted().map(SQLiteValue.text))]
    }
}
