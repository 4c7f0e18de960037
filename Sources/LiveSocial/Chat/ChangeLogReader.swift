import LiveRepository

/// Reads the server's change log after a sync point, page by page, and hands what it read to the
/// caller's commit: the one reader of the client-wide catch-up and both chat collections'
/// catch-ups.
///
/// Each caller keeps only what differs: the part of the log it asks for (its ``ChangeScope``),
/// what it writes for a batch (``commit``), whether a batch is every page or the whole log
/// (``Batching``), and when the changes read are too many to apply (``read(since:isHugeGap:commit:)``).
///
/// The reader stops at the end of the log, on a huge gap, on the first error of a request or of
/// a commit, and when its task is canceled; its ``Outcome`` says how far the log was committed,
/// which is where the next catch-up resumes.
@MainActor
struct ChangeLogReader {
    /// How the pages read reach the caller's commit.
    enum Batching: Equatable {
        /// Every page is committed as it comes: a later failure keeps what committed (the
        /// client-wide catch-up, whose log may be long).
        case eachPage
        /// The whole log is committed at its end, in one write: what it changes is reported once,
        /// and a huge gap or a failure commits nothing (a chat collection).
        case wholeLog
    }

    /// Changes of the log read since the last commit: one page, or the whole log.
    struct Batch: Equatable {
        /// The records changed, in their latest state, in the order they first appeared.
        var records: [SocialRecord] = []
        /// The records removed, in order.
        var removals: [SocialRecordKey] = []
        /// The sequence number the batch goes up to.
        var through: Int64
        /// Where each record is in ``records``.
        private var places: [SocialRecordKey: Int] = [:]

        init(through: Int64) {
            self.through = through
        }

        /// Adds a page, which comes after every page added before: a record seen before takes
        /// its new state in its old place; a record removed by this page leaves ``records``, and
        /// a removed record that this page brings back leaves ``removals``, so that the batch
        /// says what the log's last word on each record is, whatever order it is written in.
        mutating func add(_ log: ChangeLog) {
            let returning = Set(log.records.map(\.key))
            if !returning.isEmpty, !removals.isEmpty { removals.removeAll { returning.contains($0) } }
            for record in log.records {
                if let place = places[record.key] {
                    records[place] = record
                } else {
                    places[record.key] = records.count
                    records.append(record)
                }
            }
            let removed = Set(log.deleted)
            if records.contains(where: { removed.contains($0.key) }) {
                records.removeAll { removed.contains($0.key) }
                places = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.key, $0) })
            }
            removals += log.deleted
            through = max(through, log.latestSequence)
        }

        /// The batch as a change of the cache, reported with `source`.
        func change(source: MessageEventSource) -> ChatChange {
            ChatChange(upserts: records, removals: removals, source: source)
        }
    }

    /// How a read ended.
    enum Outcome: Equatable {
        /// The log was committed to its end, up to `sequence`.
        case caughtUp(through: Int64)
        /// The changes read reached the caller's huge-gap test: the read stopped, and nothing read
        /// since the last commit was committed; the log was read up to `read`.
        case hugeGap(committedThrough: Int64, read: Int64)
        /// A request or a commit failed: the log is committed up to `committedThrough`, where the
        /// next catch-up starts.
        case failed(committedThrough: Int64)
        /// The task was canceled: the log is committed up to `committedThrough`.
        case canceled(committedThrough: Int64)
    }

    /// How many changes one request asks for.
    let pageSize: Int
    /// Whether each page or the whole log is committed.
    let batching: Batching
    /// Asks the server for the changes after a sequence number, at most a number of them.
    private let fetch: @MainActor (_ since: Int64, _ limit: Int) async throws -> ChangeLog

    /// A reader of `scope`'s part of `api`'s change log.
    init(api: any SocialAPI, scope: ChangeScope, pageSize: Int, batching: Batching) {
        self.init(pageSize: pageSize, batching: batching) { since, limit in
            try await api.changes(since: since, limit: limit, scope: scope)
        }
    }

    /// A reader whose requests `fetch` answers.
    init(pageSize: Int, batching: Batching, fetch: @escaping @MainActor (_ since: Int64, _ limit: Int) async throws -> ChangeLog) {
        precondition(pageSize > 0, "a change-log request asks for at least one change")
        self.pageSize = pageSize
        self.batching = batching
        self.fetch = fetch
    }

    /// Reads the log after `point` to its end and commits it, one batch at a time, with `commit`.
    ///
    /// After each page, `isHugeGap` sees every change read since the last commit; when it says
    /// yes, the read stops without committing them. A commit that throws (a
    /// `CancellationError` included) ends the read as failed; the caller's commit may refuse a
    /// batch that way.
    func read(
        since point: Int64,
        isHugeGap: (Batch) -> Bool = { _ in false },
        commit: (Batch) async throws -> Void
    ) async -> Outcome {
        var committed = point
        var batch = Batch(through: point)
        do {
            while true {
                if Task.isCancelled { return .canceled(committedThrough: committed) }
                let log = try await fetch(batch.through, pageSize)
                if Task.isCancelled { return .canceled(committedThrough: committed) }
                batch.add(log)
                if isHugeGap(batch) { return .hugeGap(committedThrough: committed, read: batch.through) }
                if batching == .eachPage || !log.hasMore {
                    try await commit(batch)
                    committed = batch.through
                    batch = Batch(through: committed)
                }
                guard log.hasMore else { return .caughtUp(through: committed) }
            }
        } catch {
            return .failed(committedThrough: committed)
        }
    }
}
