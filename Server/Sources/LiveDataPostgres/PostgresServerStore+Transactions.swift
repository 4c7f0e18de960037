import LiveRepository
import PostgresNIO

extension PostgresServerStore {
    /// Runs `body` in a write transaction that holds the change log's lock. Nested calls run in
    /// savepoints.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(lockingChangeLog: true, body)
    }

    func transaction<T>(lockingChangeLog: Bool, _ body: () throws -> T) throws -> T {
        if depth > 0 { return try savepoint(body) }
        return try notingOutcome { try outermostTransaction(lockingChangeLog: lockingChangeLog, body) }
    }

    private func outermostTransaction<T>(lockingChangeLog: Bool, _ body: () throws -> T) throws -> T {
        // Connected before the transaction begins; a connection lost after this fails it.
        _ = try connected()
        queue("BEGIN")
        depth = 1
        loggedChanges = false
        // The transaction reads back the records it wrote without a trip.
        readAhead = ReadAhead()
        do {
            if lockingChangeLog { try lockChangeLog() }
            let result = try body()
            try commit()
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Takes the change log's counter row, on which the writers of every instance take turns,
    /// then reads the counters and the clock (statements that begin once the lock is held, so
    /// they see what the writer before committed), in one trip with the `BEGIN`.
    private func lockChangeLog() throws {
        let answers = try send([
            query(LockedWrite.lockStatement, [.text(PostgresDialect.changeLogCounter)]),
            query(LockedWrite.readStatement, []),
        ])
        locked = try LockedWrite(lockRows: answers[0], readRows: answers[1])
    }

    /// Sends the deferred writes, the counters and the clock written back, the notice of the
    /// logged changes (so that it goes out if and only if they commit) and `COMMIT`, in one trip.
    private func commit() throws {
        var statements: [PostgresQuery] = []
        if let locked {
            let notice = loggedChanges ? (Self.notificationChannel, String(locked.changeLog)) : nil
            if let writeBack = locked.writeBack(notifying: notice) {
                statements.append(query(writeBack.sql, writeBack.values))
            }
        } else if loggedChanges {
            statements.append(query(
                "SELECT pg_notify(?, value::text) FROM server_counters WHERE name = ?",
                [.text(Self.notificationChannel), .text(PostgresDialect.changeLogCounter)]))
        }
        statements.append(query("COMMIT", []))
        readAhead = nil
        try send(statements)
        if let committed = locked?.changeLog {
            ownSequence.withLock { $0 = max($0, committed) }
        }
        locked = nil
        depth = 0
    }

    /// Forgets what the transaction had yet to send, and rolls it back.
    private func rollBack() {
        unconfirmed.removeAll()
        deferred.removeAll()
        deferredEntries.removeAll()
        locked = nil
        readAhead = nil
        if let connection, !connection.isClosed {
            trips += 1
            _ = try? handOver("ROLLBACK", to: connection).wait()
        }
        depth = 0
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        let name = "s\(depth)"
        // Sent now, with what was deferred before it: a rollback to it drops only later statements.
        try run("SAVEPOINT \(name)")
        let (lockedBefore, loggedBefore, aheadBefore) = (locked, loggedChanges, readAhead)
        depth += 1
        defer { depth -= 1 }
        do {
            let result = try body()
            // Sent now: a deferred write of `body` that fails rolls back to the savepoint.
            try run("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            deferred.removeAll()
            deferredEntries.removeAll()
            (locked, loggedChanges, readAhead) = (lockedBefore, loggedBefore, aheadBefore)
            _ = try? run("ROLLBACK TO SAVEPOINT \(name)")
            throw error
        }
    }

    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if depth > 0 { return try body() }
        return try notingOutcome { try outermostReadTransaction(body) }
    }

    private func outermostReadTransaction<T>(_ body: () throws -> T) throws -> T {
        _ = try connected()
        queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        depth = 1
        do {
            let result = try body()
            // Nothing to keep and the result is read: the next trip waits for it (failing if it failed).
            queue("COMMIT")
            let connection = try connected()
            unconfirmed += deferred.map { handOver($0, to: connection) }
            deferred.removeAll()
            readAhead = nil
            depth = 0
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Runs an outermost transaction and notes how it ended for ``revealingStoreErrors(_:)``, when
    /// the task runs in it: its ``PostgresStoreError`` if it failed with one, nothing otherwise.
    private func notingOutcome<T>(_ transaction: () throws -> T) throws -> T {
        do {
            let result = try transaction()
            Self.failureRecord?.note(nil)
            return result
        } catch {
            Self.failureRecord?.note(error as? PostgresStoreError)
            throw error
        }
    }

    /// Notes that the open transaction logged a change, so that its commit is announced.
    func noteLoggedChange() { loggedChanges = true }
}
