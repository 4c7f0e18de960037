import LiveRepository
import LiveSocial

/// The answer to `POST /v1/pages`: `{"records":[..], "nextCursor": string|null}`.
///
/// The records are all of the query's record kind; ``page(of:)`` reads them as a typed page.
public struct PageBody: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case records, nextCursor }

    /// The page's records, in the query's order.
    public var records: [SocialRecord]
    /// The cursor of the next page, or nil on the last page.
    public var nextCursor: String?

    /// Creates a page body.
    public init(records: [SocialRecord], nextCursor: String?) {
        self.records = records
        self.nextCursor = nextCursor
    }

    /// Wraps a typed page; nil when its model is not one of the social domain.
    public init?<Record: CacheRecord>(_ page: RemotePage<Record>) {
        var records: [SocialRecord] = []
        records.reserveCapacity(page.records.count)
        for record in page.records {
            guard let wrapped = SocialRecord(record) else { return nil }
            records.append(wrapped)
        }
        self.init(records: records, nextCursor: page.nextCursor)
    }

    /// The page with its records as `Record`s; throws when one is of another kind.
    public func page<Record: CacheRecord>(of type: Record.Type) throws(WireDecodingError) -> RemotePage<Record> {
        var typed: [Record] = []
        typed.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard let value = record.record(as: type) else {
                throw WireDecodingError(message: "at \"records[\(index)]\": expected a record of type \(type), found \(record.kind.rawValue)")
            }
            typed.append(value)
        }
        return RemotePage(records: typed, nextCursor: nextCursor)
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        records = try c.decodeWire([SocialRecord].self, forKey: .records)
        nextCursor = try c.decodeIfPresent(String.self, forKey: .nextCursor)
    }

    /// Writes the body.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(records, forKey: .records)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}
