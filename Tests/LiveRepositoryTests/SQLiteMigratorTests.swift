import Foundation
import TestSupport
import LiveRepository
import Testing

@Suite(.timeLimit(.minutes(3))) struct SQLiteMigratorTests {
    /// A migration that records that it ran in the `log` table, which migration 1 creates.
    private static func logging(_ version: Int) -> SQLiteMigration {
        SQLiteMigration(version: version, name: "step \(version)") { db in
            if version == 1 { try db.execute("CREATE TABLE log (version INTEGER NOT NULL)") }
            try db.execute("INSERT INTO log VALUES (?)", [.int(version)])
        }
    }

    private static func log(_ db: SQLiteConnection) throws -> [Int] {
        try db.query("SELECT version FROM log ORDER BY rowid") { $0.int(0) }
    }

    @Test(arguments: TestDatabase.allCases)
    func aNewDatabaseRunsEveryMigrationInVersionOrder(database: TestDatabase) throws {
        try database.withConnection { db throws in
            // Given out of order, run in order.
            let migrator = SQLiteMigrator([Self.logging(3), Self.logging(1), Self.logging(2)])
            #expect(migrator.migrations.map(\.version) == [1, 2, 3])
            #expect(migrator.latestVersion == 3)
            #expect(try migrator.migrate(db) == [1, 2, 3])
            #expect(try db.userVersion() == 3)
            #expect(try Self.log(db) == [1, 2, 3])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func onlyTheMissingMigrationsRun(database: TestDatabase) throws {
        try database.withConnection { db throws in
            try SQLiteMigrator([Self.logging(1), Self.logging(2)]).migrate(db)
            #expect(try db.userVersion() == 2)

            let later = SQLiteMigrator((1...4).map(Self.logging))
            #expect(try later.migrate(db) == [3, 4])
            #expect(try db.userVersion() == 4)
            #expect(try Self.log(db) == [1, 2, 3, 4])

            // Up to date: nothing runs.
            #expect(try later.migrate(db) == [])
            #expect(try Self.log(db) == [1, 2, 3, 4])
        }
    }

    @Test func migrationsBuiltFromSQLRunTheirScript() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let migrator = SQLiteMigrator([
            SQLiteMigration(version: 1, name: "create notes", sql: """
                CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL);
                CREATE INDEX notes_body ON notes (body);
                """),
            SQLiteMigration(version: 2, name: "add pinned", sql: "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0"),
        ])
        #expect(try migrator.migrate(db) == [1, 2])
        try db.execute("INSERT INTO notes (id, body) VALUES ('n1', 'hello')")
        #expect(try db.queryFirst("SELECT pinned FROM notes") { $0.int(0) } == 0)
        #expect(migrator.migrations.map(\.name) == ["create notes", "add pinned"])
    }

    @Test(arguments: TestDatabase.allCases)
    func aFailingMigrationLeavesThePreviousVersionAndThrows(database: TestDatabase) throws {
        try database.withConnection { db throws in
            let broken = SQLiteMigration(version: 2, name: "broken") { db in
                try db.execute("CREATE TABLE half_done (n INTEGER)")
                try db.execute("INSERT INTO log VALUES (2)")
                try db.execute("INSERT INTO nowhere VALUES (1)")
            }
            let migrator = SQLiteMigrator([Self.logging(1), broken, Self.logging(3)])

            let failure = #expect(throws: SQLiteMigrator.Failure.self) { try migrator.migrate(db) }
            guard case .migrationFailed(let version, let name, let underlying) = failure else {
                Issue.record("expected migrationFailed, got \(String(describing: failure))")
                return
            }
            #expect(version == 2)
            #expect(name == "broken")
            #expect((underlying as? SQLiteError)?.message == "no such table: nowhere")
            #expect(failure?.description.contains("migration 2 (broken) failed") == true)
            #expect(failure?.description.contains("no such table: nowhere") == true)

            // Migration 1 stays; everything migration 2 did is rolled back; 3 never ran.
            #expect(try db.userVersion() == 1)
            #expect(try Self.log(db) == [1])
            #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM half_done") }

            // A fixed release resumes from version 2.
            let fixed = SQLiteMigrator((1...3).map(Self.logging))
            #expect(try fixed.migrate(db) == [2, 3])
            #expect(try Self.log(db) == [1, 2, 3])
        }
    }

    @Test func aMigrationThatThrowsItsOwnErrorIsWrapped() throws {
        struct Unsupported: Error {}
        let db = try SQLiteConnection(location: .inMemory)
        let migrator = SQLiteMigrator([
            SQLiteMigration(version: 1, name: "refuses") { _ in throw Unsupported() }
        ])
        let failure = #expect(throws: SQLiteMigrator.Failure.self) { try migrator.migrate(db) }
        guard case .migrationFailed(1, "refuses", let underlying) = failure else {
            Issue.record("expected migrationFailed(1, refuses), got \(String(describing: failure))")
            return
        }
        #expect(underlying is Unsupported)
        #expect(try db.userVersion() == 0)
    }

    @Test func aDatabaseNewerThanTheMigrationsIsRefused() throws {
        let db = try SQLiteConnection(location: .inMemory)
        try db.setUserVersion(5)
        let migrator = SQLiteMigrator((1...3).map(Self.logging))

        let failure = #expect(throws: SQLiteMigrator.Failure.self) { try migrator.migrate(db) }
        guard case .databaseIsNewer(let found, let latestKnown) = failure else {
            Issue.record("expected databaseIsNewer, got \(String(describing: failure))")
            return
        }
        #expect(found == 5 && latestKnown == 3)
        #expect(failure?.description == "the database has schema version 5, newer than the latest this app knows (3)")
        // Nothing ran and the version is untouched.
        #expect(try db.userVersion() == 5)
        #expect(throws: SQLiteError.self) { try Self.log(db) }
    }

    @Test func noMigrationsLeaveANewDatabaseAtVersionZero() throws {
        let db = try SQLiteConnection(location: .inMemory)
        let migrator = SQLiteMigrator([])
        #expect(migrator.latestVersion == 0)
        #expect(try migrator.migrate(db) == [])
        #expect(try db.userVersion() == 0)
    }

    @Test func theVersionIsKeptInTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let migrator = SQLiteMigrator((1...2).map(Self.logging))
        do {
            let db = try SQLiteConnection(location: .file(url))
            defer { db.close() }
            #expect(try migrator.migrate(db) == [1, 2])
        }
        let reopened = try SQLiteConnection(location: .file(url))
        defer { reopened.close() }
        #expect(try reopened.userVersion() == 2)
        #expect(try migrator.migrate(reopened) == [])
        #expect(try Self.log(reopened) == [1, 2])
    }

    /// Processes that open one new file at the same moment (an app and its extension) each read
    /// version 0 before either migrates; every migration must still run once, and none may fail.
    @Test func connectionsMigratingOneNewFileAtOnceRunEachMigrationOnce() throws {
        let migrator = SQLiteMigrator((1...3).map(Self.logging))
        for round in 0..<20 {
            let directory = try TemporaryDirectory()
            let url = directory.file("shared-\(round).sqlite")
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let db = try SQLiteConnection(location: .file(url))
                    defer { db.close() }
                    try migrator.migrate(db)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let db = try SQLiteConnection(location: .file(url))
            defer { db.close() }
            #expect(try Self.log(db) == [1, 2, 3], "round \(round)")
            #expect(try db.userVersion() == 3)
        }
    }
}
