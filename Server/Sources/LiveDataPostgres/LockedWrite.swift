import LiveRepository
import PostgresNIO

/// What a write transaction of ``PostgresServerStore`` read once it held the change log's lock:
/// the named counters (the change log's among them) and the clock, with the transaction's own
/// changes to them, written back once, just before `COMMIT`.
///
/// Every write transaction takes the lock before it reads or writes these rows, so what the
/// holder read after taking it stays true until it commits: the next sequence number, id or
/// timestamp is worked out here instead of costing a round trip each.
struct LockedWrite {
    /// Each counter's value: as read under the lock, then as this transaction took it.
    private var counters: [String: Int64]
    /// The last timestamp handed out; nil before the first.
    private var clock: Double?
    private var changedCounters: Set<String> = []
    private var clockChanged = false

    /// Takes the lock: the change log's counter row (binding: its name), for the transaction.
    static let lockStatement = "SELECT value FROM server_counters WHERE name = ? FOR UPDATE"
    /// Reads every counter and the clock. Sent after ``lockStatement`` has returned, it begins
    /// once the lock is held, so it sees what the writer before committed.
    static let readStatement =
        "SELECT name, value, NULL::DOUBLE PRECISION FROM server_counters UNION ALL SELECT NULL, NULL, lastTimestamp FROM server_clock WHERE id = 1"

    /// What the rows of ``lockStatement`` and ``readStatement`` say.
    ///
    /// - Throws: ``PostgresStoreError/database(_:)`` when the counter row is missing or a row is unreadable.
    init(lockRows: [PostgresRow], readRows: [PostgresRow]) throws {
        guard let lockRow = lockRows.first, case .integer(let changeLog)? = try PostgresValues.values(of: lockRow).first else {
            throw PostgresStoreError.database("the change log's counter is missing")
        }
        counters = [:]
        for row in readRows {
            let values = try PostgresValues.values(of: row)
            if values.count == 3, case .text(let name) = values[0], case .integer(let value) = values[1] {
                counters[name] = value
            } else if values.count == 3, case .real(let last) = values[2] {
                clock = last
            } else {
                throw PostgresStoreError.database("an unreadable row of server_counters or server_clock")
            }
        }
        counters[PostgresDialect.changeLogCounter] = changeLog
    }

    /// The last sequence number taken: the last committed one, or this transaction's own last.
    var changeLog: Int64 { counters[PostgresDialect.changeLogCounter] ?? 0 }

    /// Takes the next sequence number of the change log.
    mutating func takeSequence() -> Int64 {
        Int64(nextCounter(PostgresDialect.changeLogCounter))
    }

    /// Whether a named counter has been taken at least once.
    func hasCounter(_ name: String) -> Bool { counters[name] != nil }

    /// The next value of a named counter, starting at 1.
    mutating func nextCounter(_ name: String) -> Int64 {
        let value = (counters[name] ?? 0) + 1
        counters[name] = value
        changedCounters.insert(name)
        return value
    }

    /// `clockTime`, or a millisecond after the last timestamp if that is later (as the clock's
    /// SQL did: `GREATEST(lastTimestamp + 0.001, clockTime)`).
    mutating func nextTimestamp(clockTime: Double) -> Double {
        let next = clock.map { max($0 + 0.001, clockTime) } ?? clockTime
        clock = next
        clockChanged = true
        return next
    }

    /// Makes later timestamps come after `timestamp`.
    mutating func reserveTimestamps(through timestamp: Double) {
        clock = clock.map { max($0, timestamp) } ?? timestamp
        clockChanged = true
    }

    /// One statement that writes the changed counters and clock back and, given `notice`, sends
    /// it on `channel` (`?` placeholders); nil when there is nothing to send. The rows never move
    /// backwards, should a writer ever change one without holding the lock.
    func writeBack(notifying notice: (channel: String, payload: String)?) -> (sql: String, values: [SQLiteValue])? {
        var parts: [String] = []
        var values: [SQLiteValue] = []
        if !changedCounters.isEmpty {
            let names = changedCounters.sorted()
            let rows = Array(repeating: "(?, ?)", count: names.count).joined(separator: ", ")
            parts.append("""
                counters AS (INSERT INTO server_counters (name, value) VALUES \(rows) ON CONFLICT (name) DO UPDATE
                SET value = GREATEST(server_counters.value, EXCLUDED.value))
                """)
            values += names.flatMap { name in [.text(name), .integer(counters[name] ?? 0)] }
        }
        if clockChanged, let clock {
            parts.append("""
                clock AS (INSERT INTO server_clock (id, lastTimestamp) VALUES (1, ?) ON CONFLICT (id) DO UPDATE
                SET lastTimestamp = GREATEST(server_clock.lastTimestamp, EXCLUDED.lastTimestamp))
                """)
            values.append(.real(clock))
        }
        guard !parts.isEmpty || notice != nil else { return nil }
        var sql = parts.isEmpty ? "" : "WITH " + parts.joined(separator: ", ") + " "
        if let notice {
            sql += "SELECT pg_notify(?, ?)"
            values += [.text(notice.channel), .text(notice.payload)]
        } else {
            sql += "SELECT 1"
        }
        return (sql, values)
    }
}
