import LiveRepository
import LiveSocial
import LiveSocialServer

extension PostgresServerStore {
    public func appendChange(_ change: ChangeRecord) throws -> Int64 {
        if locked != nil {
            // The number follows the counter read under the lock; the entry is sent with the
            // next statement, and the counter written back at the commit.
            let number = locked!.takeSequence()
            queueEntry(change, sequence: number)
            noteLoggedChange()
            return number
        }
        // Outside a transaction that holds the lock: one round trip takes the next number and
        // logs the change under it.
        let sequence = try first(
            """
            WITH next AS (UPDATE server_counters SET value = value + 1 WHERE name = ? RETURNING value)
            INSERT INTO server_changelog (sequence, kind, recordId, isRemoval, scope, isCreation, channelId)
            SELECT value, ?, ?, ?, ?, ?, ? FROM next RETURNING sequence
            """,
            [.text(PostgresDialect.changeLogCounter), .text(change.key.kind.rawValue), .text(change.key.id),
             .bool(change.isRemoval), .optional(change.scope), .bool(change.isCreation), .optional(change.channelId)])
        guard case .integer(let number) = sequence else {
            throw PostgresStoreError.database("the change log's counter is missing")
        }
        noteLoggedChange()
        return number
    }

    public func changeEntries(after sequence: Int64, scope: ChangeScope, limit: Int) throws -> [ChangeEntry] {
        let filter: (sql: String, bindings: [SQLiteValue]) = switch scope {
        case .all: ("", [])
        case .channels: ("AND kind = ?", [.text(SocialRecordKind.channel.rawValue)])
        case .messages(let channelId): ("AND scope = ?", [.text(ChangeRecord.messageScope(channelId))])
        }
        // Holding the lock, no entry comes after the counter (this transaction's own included).
        if let locked, sequence >= locked.changeLog { return [] }
        return try run(
            "SELECT sequence, kind, recordId, isRemoval, isCreation, channelId FROM server_changelog WHERE sequence > ? \(filter.sql) ORDER BY sequence LIMIT ?",
            [.integer(sequence)] + filter.bindings + [.int(limit)]
        ).map { row in
            let values = try PostgresValues.values(of: row)
            guard case .integer(let number) = values[0], case .text(let kindName) = values[1],
                  let kind = SocialRecordKind(rawValue: kindName), case .text(let id) = values[2],
                  case .integer(let removal) = values[3], case .integer(let creation) = values[4]
            else { throw PostgresStoreError.database("an unreadable entry in the change log") }
            let channelId: String? = if case .text(let channel) = values[5] { channel } else { nil }
            return ChangeEntry(
                sequence: number, key: SocialRecordKey(kind, id), isRemoval: removal != 0, isCreation: creation != 0,
                channelId: channelId)
        }
    }

    public func loggedChannelId(sequence: Int64) throws -> String? {
        if case .text(let channelId) = try first(
            "SELECT channelId FROM server_changelog WHERE sequence = ?", [.integer(sequence)]) {
            return channelId
        }
        return nil
    }

    public func latestSequence() throws -> Int64 {
        if let locked { return locked.changeLog }
        // The counter moves in the transactions that log, so its committed value is the last
        // committed number (and, in a writing transaction, that transaction's own last).
        guard case .integer(let value) = try first(
            "SELECT value FROM server_counters WHERE name = ?", [.text(PostgresDialect.changeLogCounter)]) else {
            return 0
        }
        return value
    }

    public func nextTimestamp(clockTime: Double) throws -> Double {
        if locked != nil { return locked!.nextTimestamp(clockTime: clockTime) }
        guard case .real(let next) = try first(
            """
            INSERT INTO server_clock (id, lastTimestamp) VALUES (1, ?) ON CONFLICT (id) DO UPDATE
            SET lastTimestamp = GREATEST(server_clock.lastTimestamp + 0.001, EXCLUDED.lastTimestamp)
            RETURNING lastTimestamp
            """, [.real(clockTime)]) else {
            throw PostgresStoreError.database("the clock row could not be written")
        }
        return next
    }

    public func reserveTimestamps(through timestamp: Double) throws {
        if locked != nil { return locked!.reserveTimestamps(through: timestamp) }
        try run(
            """
            INSERT INTO server_clock (id, lastTimestamp) VALUES (1, ?) ON CONFLICT (id) DO UPDATE
            SET lastTimestamp = GREATEST(server_clock.lastTimestamp, EXCLUDED.lastTimestamp)
            """, [.real(timestamp)])
    }

    public func hasCounter(_ name: String) throws -> Bool {
        if let locked { return locked.hasCounter(name) }
        return try first("SELECT 1 FROM server_counters WHERE name = ?", [.text(name)]) != nil
    }

    public func nextCounter(_ name: String) throws -> Int {
        if locked != nil { return Int(locked!.nextCounter(name)) }
        guard case .integer(let value) = try first(
            """
            INSERT INTO server_counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE
            SET value = server_counters.value + 1 RETURNING value
            """, [.text(name)]) else {
            throw PostgresStoreError.database("the counter \(name) could not be taken")
        }
        return Int(value)
    }

    public func idempotentAnswer(key: String, userId: String) throws -> [UInt8]? {
        if case .blob(let bytes) = try first(
            "SELECT answer FROM server_idempotency WHERE userId = ? AND requestKey = ?", [.text(userId), .text(key)]) {
            return bytes
        }
        return nil
    }

    public func storeIdempotentAnswer(
        _ answer: [UInt8], key: String, userId: String, at time: Double, keepingAfter oldest: Double
    ) throws {
        try write("DELETE FROM server_idempotency WHERE storedAt <= ?", [.real(oldest)])
        try write(
            "INSERT INTO server_idempotency (userId, requestKey, answer, storedAt) VALUES (?, ?, ?, ?)",
            [.text(userId), .text(key), .blob(answer), .real(time)])
    }
}
