@testable import LiveSocial

/// A server's change log as a list of pages the test writes, for driving a `ChangeLogReader`
/// without a server: each request gets the next page, and records what it asked for.
@MainActor
final class ScriptedChangeLog {
    /// What a request asked for.
    struct Request: Equatable {
        var since: Int64
        var limit: Int
    }

    /// The pages, in the order requests get them.
    private var pages: [ChangeLog]
    /// The requests made so far.
    private(set) var requests: [Request] = []
    /// The (zero-based) request that throws instead of answering, if any.
    var failingRequest: Int?
    /// The (zero-based) request during which the reading task is canceled, if any; the page is
    /// still answered.
    var cancelingRequest: Int?

    init(pages: [ChangeLog]) {
        self.pages = pages
    }

    /// A log of pages of `sizes` changed channels each, after `start`: each page ends one
    /// sequence number per channel later, and every page but the last says more follow.
    convenience init(after start: Int64, sizes: [Int]) {
        var pages: [ChangeLog] = []
        var sequence = start
        for (number, size) in sizes.enumerated() {
            let records = (0..<size).map { _ in
                sequence += 1
                return SocialRecord.channel(Self.channel("ch\(sequence)", at: sequence))
            }
            pages.append(ChangeLog(records: records, deleted: [], latestSequence: sequence, hasMore: number < sizes.count - 1))
        }
        self.init(pages: pages)
    }

    /// A channel changed at `sequence`, as the log lists it.
    static func channel(_ id: String, at sequence: Int64, name: String? = nil) -> Channel {
        let time = Double(sequence)
        return Channel(id: id, displayName: name ?? id, type: .community, lastActivityAt: time, createdAt: 0, updatedAt: time)
    }

    /// Answers a request with the next page.
    func changes(since: Int64, limit: Int) throws -> ChangeLog {
        let number = requests.count
        requests.append(Request(since: since, limit: limit))
        if number == failingRequest { throw SocialAPIError.serverFailure("change log failed by the test") }
        if number == cancelingRequest { withUnsafeCurrentTask { $0?.cancel() } }
        precondition(number < pages.count, "the reader asked past the log's last page")
        return pages[number]
    }

    /// A reader of this log.
    func reader(pageSize: Int = 2, batching: ChangeLogReader.Batching) -> ChangeLogReader {
        ChangeLogReader(pageSize: pageSize, batching: batching) { [self] since, limit in
            try changes(since: since, limit: limit)
        }
    }
}
