import TestSupport
import CSQLite
import Foundation
import LiveRepository
import Testing

@Suite(.timeLimit(.minutes(3))) struct SQLiteConnectionTests {
    // MARK: - Values

    /// One value of each storage class, with the edge cases of each.
    static let everyKindOfValue: [SQLiteValue] = [
        .null,
        .integer(0), .integer(-1), .integer(.min), .integer(.max),
        .real(0.5), .real(-1e300), .real(.greatestFiniteMagnitude), .real(.leastNonzeroMagnitude),
        .text(""), .text("plain"), .text("héllo wörld, 世界, 👋🏽"), .text("it's \"quoted\""),
        .text("a\u{0}b"),  // bound with its byte count, or SQLite stops at the NUL
        .blob([]), .blob([0]), .blob([0x00, 0x01, 0x7F, 0x80, 0xFF]), .blob((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
    ]

    @Test(arguments: TestDatabase.allCases)
    func everyValueRoundTrips(database: TestDatabase) throws {
        try database.withConnection { db throws in
            // A column without a declared type keeps every value in the class it was bound as.
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            for (id, value) in Self.everyKindOfValue.enumerated() {
                try db.execute("INSERT INTO t (id, v) VALUES (?, ?)", [.int(id), value])
            }
            let read = try db.query("SELECT v FROM t ORDER BY id") { $0[0] }
            #expect(read.count == Self.everyKindOfValue.count)
            for (expected, actual) in zip(Self.everyKindOfValue, read) {
                #expect(actual == expected)
            }
        }
    }

    @Test func typedAccessorsReadAndConvertColumns() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let row = try #require(
            try db.queryFirst("SELECT 42, 1.5, 'text', x'0102', NULL, 0, -3") { row in
                (
                    count: row.count,
                    int: row.int(0), int64: row.int64(0), bool: row.bool(0), double: row.double(1),
                    string: row.string(2), bytes: row.bytes(3), isNull: row.isNull(4), notNull: row.isNull(0),
                    nullInt: row.int(4), nullDouble: row.double(4), nullString: row.string(4), nullBytes: row.bytes(4),
                    optionalString: row.optionalString(4), optionalDouble: row.optionalDouble(4),
                    optionalInt: row.optionalInt(4), presentInt: row.optionalInt(0),
                    presentString: row.optionalString(2), presentDouble: row.optionalDouble(1),
                    falseBool: row.bool(5), trueBool: row.bool(6)
                )
            })
        #expect(row.count == 7)
        #expect(row.int == 42 && row.int64 == 42 && row.bool && row.double == 1.5)
        #expect(row.string == "text" && row.bytes == [1, 2])
        #expect(row.isNull && !row.notNull)
        #expect(row.nullInt == 0 && row.nullDouble == 0 && row.nullString == "" && row.nullBytes == [])
        #expect(row.optionalString == nil && row.optionalDouble == nil && row.optionalInt == nil)
        #expect(row.presentInt == 42 && row.presentString == "text" && row.presentDouble == 1.5)
        #expect(!row.falseBool && row.trueBool)
    }

    @Test func queriesMapEveryRowAndQueryFirstOnlyTheFirst() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (n INTEGER)")
        for n in 1...3 { try db.execute("INSERT INTO t VALUES (?)", [.int(n)]) }
        #expect(try db.query("SELECT n FROM t ORDER BY n") { $0.int(0) } == [1, 2, 3])
        #expect(try db.query("SELECT n FROM t WHERE n > ?", [5]) { $0.int(0) } == [])
        #expect(try db.queryFirst("SELECT n FROM t ORDER BY n DESC") { $0.int(0) } == 3)
        #expect(try db.queryFirst("SELECT n FROM t WHERE n > ?", [5]) { $0.int(0) } == nil)
    }

    @Test func aQueryRunsAgainAfterItsRowBlockThrew() throws {
        struct Stop: Error {}
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (n INTEGER)")
        for n in 1...3 { try db.execute("INSERT INTO t VALUES (?)", [.int(n)]) }
        #expect(throws: Stop.self) {
            try db.query("SELECT n FROM t ORDER BY n") { row in
                if row.int(0) == 2 { throw Stop() }
                return row.int(0)
            }
        }
        #expect(try db.query("SELECT n FROM t ORDER BY n") { $0.int(0) } == [1, 2, 3])
    }

    @Test func countsChangesAndReportsTheLastRowID() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)")
        try db.execute("INSERT INTO t (n) VALUES (1), (2), (3)")
        #expect(db.changes == 3)
        #expect(db.lastInsertRowID == 3)
        try db.execute("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(.max), 4])
        #expect(db.lastInsertRowID == .max)
        try db.execute("UPDATE t SET n = n + 1 WHERE n >= ?", [2])
        #expect(db.changes == 3)
    }

    @Test func runsAScriptOfSeveralStatements() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.executeScript("""
            CREATE TABLE a (n INTEGER);
            CREATE TABLE b (n INTEGER);
            INSERT INTO a VALUES (1);
            INSERT INTO b VALUES (2);
            """)
        #expect(try db.queryFirst("SELECT (SELECT n FROM a) + (SELECT n FROM b)") { $0.int(0) } == 3)
        let error = #expect(throws: SQLiteError.self) {
            try db.executeScript("INSERT INTO a VALUES (3); INSERT INTO missing VALUES (4);")
        }
        #expect(error?.message.contains("no such table: missing") == true)
        #expect(error?.sql == "INSERT INTO a VALUES (3); INSERT INTO missing VALUES (4);")
    }

    // MARK: - Parameters

    @Test func boundTextIsStoredLiterallyNeverRunAsSQL() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE students (name TEXT NOT NULL)")
        let names = ["O'Brien", "Robert'); DROP TABLE students;--", "'; DROP TABLE students; --", "?", "\\"]
        for name in names {
            try db.execute("INSERT INTO students (name) VALUES (?)", [.text(name)])
        }
        #expect(try db.query("SELECT name FROM students ORDER BY rowid") { $0.string(0) } == names)
        let found = try db.queryFirst("SELECT count(*) FROM students WHERE name = ?", ["'; DROP TABLE students; --"]) { $0.int(0) }
        #expect(found == 1)
    }

    @Test func theWrongNumberOfParametersThrowsARangeError() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (a, b)")
        let sql = "INSERT INTO t (a, b) VALUES (?, ?)"
        #expect(try db.statement(sql).parameterCount == 2)

        let tooFew = #expect(throws: SQLiteError.self) { try db.execute(sql, [1]) }
        #expect(tooFew?.code == SQLITE_RANGE)
        #expect(tooFew?.message == "the statement takes 2 parameters, 1 were given")
        #expect(tooFew?.sql == sql)

        let tooMany = #expect(throws: SQLiteError.self) { try db.execute(sql, [1, 2, 3]) }
        #expect(tooMany?.code == SQLITE_RANGE)
        #expect(tooMany?.message == "the statement takes 2 parameters, 3 were given")

        // Nothing was inserted, and the statement still works with the right count.
        #expect(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 0)
        try db.execute(sql, [1, 2])
        #expect(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 1)
    }

    // MARK: - Errors

    @Test func aSyntaxErrorCarriesSQLitesMessageAndTheSQL() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.message.contains("SELEC") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.description.contains("syntax error") == true)
        #expect(error?.description.contains("SELEC 1") == true)
        #expect(error?.isConstraintViolation == false && error?.isCorruption == false)

        let missing = #expect(throws: SQLiteError.self) { try db.query("SELECT * FROM nowhere") { $0.int(0) } }
        #expect(missing?.message == "no such table: nowhere")
    }

    @Test func constraintViolationsAreRecognised() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute("INSERT INTO users VALUES (?, ?)", ["u1", "Ann"])

        let duplicate = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO users VALUES (?, ?)", ["u1", "Bob"])
        }
        #expect(duplicate?.isConstraintViolation == true)
        #expect(duplicate?.code == SQLITE_CONSTRAINT)
        #expect(duplicate?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY, a macro Swift cannot import
        #expect(duplicate?.message == "UNIQUE constraint failed: users.id")

        let missingName = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO users VALUES (?, ?)", ["u2", nil])
        }
        #expect(missingName?.isConstraintViolation == true)
        #expect(missingName?.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL

        // The failed statement is reset and runs again.
        try db.execute("INSERT INTO users VALUES (?, ?)", ["u2", "Bob"])
        #expect(try db.query("SELECT name FROM users ORDER BY id") { $0.string(0) } == ["Ann", "Bob"])
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorruption() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("garbage.sqlite")
        var random = SeededRandom(seed: 1)
        let garbage = (0..<8_192).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try Data(garbage).write(to: url)

        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(location: .file(url)) }
        #expect(error?.isCorruption == true)
        #expect(error?.code == SQLITE_NOTADB)
    }

    @Test func errorsNameTheFileTheyHappenedIn() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("named.sqlite")
        let db = try SQLiteConnection(location: .file(url))
        defer { db.close() }
        let failed = #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM missing") }
        #expect(failed?.path == url.path)
        #expect(failed?.description.contains(url.path) == true)
        #expect(failed?.description.contains("no such table: missing") == true)
        let scripted = #expect(throws: SQLiteError.self) { try db.executeScript("SELECT * FROM missing;") }
        #expect(scripted?.description.contains(url.path) == true)
        // A damaged file: the corruption names the file too.
        try db.executeScript("CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(3000)), (randomblob(3000));")
        db.close()
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 4096 + 1000)
        try handle.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let corrupt = #expect(throws: SQLiteError.self) {
            let reopened = try SQLiteConnection(location: .file(url))
            defer { reopened.close() }
            _ = try reopened.query("SELECT length(x) FROM t") { $0.int(0) }
        }
        #expect(corrupt?.isCorruption == true)
        #expect(corrupt?.description.contains(url.path) == true)
        // Memory has no file; the path appears once when SQLite's message already has it.
        let memory = try SQLiteConnection(location: .inMemory)
        #expect((#expect(throws: SQLiteError.self) { try memory.execute("SELECT * FROM missing") })?.path == nil)
        let missing = directory.file("missing/x.sqlite")
        let unopened = #expect(throws: SQLiteError.self) { try SQLiteConnection(location: .file(missing)) }
        #expect(unopened?.path == missing.path)
        #expect(unopened?.description.components(separatedBy: missing.path).count == 2)
    }

    @Test func aMissingDirectoryCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("missing/test.sqlite")
        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(location: .file(url)) }
        #expect(error?.code == SQLITE_CANTOPEN)
        #expect(error?.message.contains(url.path) == true)
    }

    // MARK: - Files

    @Test func aFileDatabaseKeepsItsDataAndUsesWriteAheadLogging() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        do {
            let db = try SQLiteConnection(location: .file(url))
            defer { db.close() }
            #expect(db.location == .file(url))
            #expect(try db.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
            try db.execute("CREATE TABLE notes (body TEXT)")
            try db.execute("INSERT INTO notes VALUES (?)", ["kept"])
        }
        #expect(FileManager.default.fileExists(atPath: url.path))

        let reopened = try SQLiteConnection(location: .file(url))
        defer { reopened.close() }
        #expect(try reopened.query("SELECT body FROM notes") { $0.string(0) } == ["kept"])
    }

    @Test func aReadOnlyConnectionReadsButRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        do {
            let db = try SQLiteConnection(location: .file(url))
            defer { db.close() }
            try db.execute("CREATE TABLE notes (body TEXT)")
            try db.execute("INSERT INTO notes VALUES ('kept')")
        }
        let reader = try SQLiteConnection(location: .file(url), readOnly: true)
        defer { reader.close() }
        #expect(try reader.query("SELECT body FROM notes") { $0.string(0) } == ["kept"])
        let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO notes VALUES ('new')") }
        #expect(error?.code == SQLITE_READONLY)
    }

    // MARK: - Transactions

    @Test(arguments: TestDatabase.allCases)
    func aTransactionCommitsWhatItsBodyDid(database: TestDatabase) throws {
        try database.withConnection { db throws in
            try db.execute("CREATE TABLE t (n INTEGER)")
            #expect(db.isInAutocommitMode)
            let result = try db.transaction {
                #expect(!db.isInAutocommitMode)
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (2)")
                return "done"
            }
            #expect(result == "done")
            #expect(db.isInAutocommitMode)
            #expect(try db.query("SELECT n FROM t ORDER BY n") { $0.int(0) } == [1, 2])
            // The connection is not left inside a transaction: BEGIN would fail there.
            try db.execute("BEGIN")
            try db.execute("ROLLBACK")
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aTransactionRollsBackWhenItsBodyThrows(database: TestDatabase) throws {
        struct Refused: Error, Equatable {}
        try database.withConnection { db throws in
            try db.execute("CREATE TABLE t (n INTEGER)")
            try db.execute("INSERT INTO t VALUES (0)")
            #expect(throws: Refused()) {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (1)")
                    try db.execute("DELETE FROM t WHERE n = 0")
                    throw Refused()
                }
            }
            #expect(try db.query("SELECT n FROM t") { $0.int(0) } == [0])
            // A SQLite failure inside rolls back the same way and is rethrown.
            let error = #expect(throws: SQLiteError.self) {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (2)")
                    try db.execute("INSERT INTO nowhere VALUES (3)")
                }
            }
            #expect(error?.message == "no such table: nowhere")
            #expect(try db.query("SELECT n FROM t") { $0.int(0) } == [0])
            // And the connection is usable for new transactions.
            try db.transaction { try db.execute("INSERT INTO t VALUES (4)") }
            #expect(try db.query("SELECT n FROM t ORDER BY n") { $0.int(0) } == [0, 4])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aNestedTransactionRollsBackOnlyItsOwnWork(database: TestDatabase) throws {
        struct Refused: Error {}
        try database.withConnection { db throws in
            try db.execute("CREATE TABLE t (n INTEGER)")
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                #expect(throws: Refused.self) {
                    try db.transaction {
                        try db.execute("INSERT INTO t VALUES (2)")
                        try db.transaction { try db.execute("INSERT INTO t VALUES (3)") }
                        throw Refused()
                    }
                }
                try db.transaction { try db.execute("INSERT INTO t VALUES (4)") }
                try db.execute("INSERT INTO t VALUES (5)")
            }
            #expect(try db.query("SELECT n FROM t ORDER BY n") { $0.int(0) } == [1, 4, 5])
        }
    }

    @Test func anOuterRollbackUndoesACommittedInnerTransaction() throws {
        struct Refused: Error {}
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (n INTEGER)")
        #expect(throws: Refused.self) {
            try db.transaction {
                try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
                throw Refused()
            }
        }
        #expect(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 0)
    }

    // MARK: - Statements and closing

    @Test func theStatementCacheReturnsOneStatementPerSQL() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let first = try db.statement("SELECT ?")
        let again = try db.statement("SELECT ?")
        let other = try db.statement("SELECT ?, ?")
        #expect(first === again)
        #expect(first !== other)
        #expect(first.sql == "SELECT ?")
        #expect(other.parameterCount == 2)
        // execute and query use the same cache.
        #expect(try db.queryFirst("SELECT ?", [7]) { $0.int(0) } == 7)
        #expect(try db.statement("SELECT ?") === first)

        // While it is between rows, a nested use gets a statement of its own; once reset, the
        // cached one is handed out again.
        let running = try db.statement("SELECT value FROM json_each('[1, 2]')")
        #expect(try running.step())
        #expect(try db.statement(running.sql) !== running)
        running.reset()
        #expect(try db.statement(running.sql) === running)
    }

    @Test func aStatementStepsThroughRowsAndRunsAgainAfterReset() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let statement = try db.statement("SELECT value FROM json_each(?)")
        try statement.bind(["[1, 2]"])
        var values: [Int] = []
        while try statement.step() { values.append(statement.row.int(0)) }
        #expect(values == [1, 2])
        statement.reset()  // keeps the bindings
        #expect(try statement.step() && statement.row.int(0) == 1)
        try statement.bind(["[3]"])  // rebinding resets
        #expect(try statement.step() && statement.row.int(0) == 3)
        #expect(try !statement.step())
        statement.reset()
    }

    @Test func aQueryCanRunItselfFromInsideItsRowBlock() throws {
        // Loading a tree runs the children query for each child: the same SQL, nested. The
        // nested run must not reset the cached statement the outer run is reading.
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE nodes (id INTEGER PRIMARY KEY, parent INTEGER)")
        try db.executeScript("INSERT INTO nodes VALUES (1, NULL), (2, 1), (3, 1), (4, 2), (5, 3), (6, 3);")
        func descendants(of id: Int) throws -> [Int] {
            try db.query("SELECT id FROM nodes WHERE parent = ? ORDER BY id", [.int(id)]) { row in
                [row.int(0)] + (try descendants(of: row.int(0)))
            }.flatMap { $0 }
        }
        #expect(try descendants(of: 1) == [2, 4, 3, 5, 6])
    }

    @Test func aClosedConnectionThrowsClosed() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.execute("CREATE TABLE t (n INTEGER)")
        try db.execute("INSERT INTO t VALUES (?)", [1])
        #expect(!db.isClosed)
        db.close()
        #expect(db.isClosed)
        db.close()  // closing twice does nothing
        #expect(db.isClosed)

        #expect(throws: SQLiteError.closed) { try db.execute("INSERT INTO t VALUES (?)", [1]) }
        #expect(throws: SQLiteError.closed) { try db.execute("SELECT 1") }
        #expect(throws: SQLiteError.closed) { try db.query("SELECT n FROM t") { $0.int(0) } }
        #expect(throws: SQLiteError.closed) { try db.queryFirst("SELECT n FROM t") { $0.int(0) } }
        #expect(throws: SQLiteError.closed) { try db.executeScript("SELECT 1;") }
        #expect(throws: SQLiteError.closed) { try db.statement("SELECT 2") }
        #expect(throws: SQLiteError.closed) { try db.transaction {} }
        #expect(throws: SQLiteError.closed) { try db.userVersion() }
        #expect(throws: SQLiteError.closed) { try db.setUserVersion(1) }
        #expect(db.changes == 0)
        #expect(db.lastInsertRowID == 0)
        #expect(SQLiteError.closed.code == SQLITE_MISUSE)
    }

    @Test func storesTheUserVersion() throws {
        let db = try SQLiteConnection(location: .inMemory)
        #expect(try db.userVersion() == 0)
        try db.setUserVersion(12)
        #expect(try db.userVersion() == 12)
    }
}
