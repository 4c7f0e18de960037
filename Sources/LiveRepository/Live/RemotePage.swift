/// One page of a query's results from the server.
public struct RemotePage<Record: CacheRecord>: Sendable {
    /// The records of the page, in the order of the query, starting from the collection's anchor.
    public var records: [Record]
    /// The cursor of the page after this one, or nil when this is the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(records: [Record], nextCursor: String?) {
        self.records = records
        self.nextCursor = nextCursor
    }
}
