import LiveRepository
import LiveSocial
import LiveSocialServer

/// A server on a manual clock with deterministic timestamps, and helpers to read it.
struct ServerFixture {
    static let epoch = 1_700_000_000.0

    let clock = ManualClock()
    let server: EmbeddedServer

    init(latency: Duration = .zero) throws {
        server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: Self.epoch, latency: latency)
    }

    /// A fixture whose server holds the demo data.
    static func seeded(latency: Duration = .zero) async throws -> ServerFixture {
        let fixture = try ServerFixture(latency: latency)
        try await fixture.server.seedDemoData()
        return fixture
    }

    /// A connection signed in as `userId`.
    func connection(_ userId: String = "ada") -> EmbeddedServer.Connection {
        server.connection(userId: userId)
    }
}

/// Every record of a query, page by page, and the number of pages it took.
func fetchAll<Record: CacheRecord>(
    _ query: SocialQuery<Record>, from api: some SocialAPI, pageSize: Int
) async throws -> (records: [Record], pages: Int) {
    var records: [Record] = []
    var cursor: String?
    var pages = 0
    repeat {
        let page = try await api.fetchPage(query, cursor: cursor, limit: pageSize)
        records += page.records
        cursor = page.nextCursor
        pages += 1
        precondition(pages < 10_000, "paging does not end")
    } while cursor != nil
    return (records, pages)
}

/// Whether records are in a query's order: by (sort column, id), in its direction, with no ties.
func isInQueryOrder<Record: CacheRecord>(_ records: [Record], _ query: CacheQuery<Record>) -> Bool {
    guard let column = Record.table.columnIndex(query.sortColumn) else { return false }
    func before(_ lhs: Record, _ rhs: Record) -> Bool {
        let (left, right) = (lhs.columnValues[column], rhs.columnValues[column])
        if left == right { return lhs.id < rhs.id }
        switch (left, right) {
        case (.real(let a), .real(let b)): return a < b
        case (.integer(let a), .integer(let b)): return a < b
        case (.text(let a), .text(let b)): return a < b
        case (.null, _): return true
        default: return false
        }
    }
    return zip(records, records.dropFirst()).allSatisfy { query.ascending ? before($0, $1) : before($1, $0) }
}
