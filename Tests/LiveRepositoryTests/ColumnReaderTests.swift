import Testing
import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct ColumnReaderTests {
    @Test func aRecordWrittenWithItsValuesReadsBackEqual() throws {
        let db = try Gadget.database()
        for gadget in [Gadget.full, Gadget.sparse] { try Gadget.insert(gadget, into: db) }
        #expect(try Gadget.all(in: db) == [Gadget.full, Gadget.sparse])
    }

    @Test func anUnknownCaseIsAMismatchThatNamesTheColumn() throws {
        let db = try Gadget.database()
        try Gadget.insert(Gadget.full, into: db)
        try db.execute("UPDATE gadgets SET mood = 'asleep'")
        #expect {
            _ = try Gadget.all(in: db)
        } throws: { error in
            "\(error)".contains("unknown Mood value 'asleep' in column mood")
        }
    }

    @Test func textThatIsNotTheCollectionsJSONIsAMismatchThatNamesTheColumn() throws {
        let db = try Gadget.database()
        try Gadget.insert(Gadget.full, into: db)
        try db.execute("UPDATE gadgets SET labels = '[1, 2]'")
        #expect {
            _ = try Gadget.all(in: db)
        } throws: { error in
            "\(error)".contains("column labels does not hold")
        }
    }

    @Test func anEmptyCollectionIsReadFromEitherEmptyForm() throws {
        let db = try Gadget.database()
        try Gadget.insert(Gadget.sparse, into: db)
        // Rows may hold `[]` where `{}` is written now, or nothing.
        try db.execute("UPDATE gadgets SET tags = '{}', labels = ''")
        #expect(try Gadget.all(in: db) == [Gadget.sparse])
    }

    @Test func readingAColumnAsAnotherTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            let db = try Gadget.database()
            try Gadget.insert(Gadget.full, into: db)
            _ = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets") { row in
                var columns = ColumnReader(row, of: Gadget.table)
                _ = try columns.next(String.self)
                _ = try columns.next(String.self)
                _ = try columns.next(String.self) // `count` is an integer column
            }
        }
    }

    @Test func readingANullableColumnAsNonOptionalTraps() async {
        await #expect(processExitsWith: .failure) {
            let db = try Gadget.database()
            try Gadget.insert(Gadget.full, into: db)
            _ = try db.query("SELECT id, nickname FROM gadgets") { row in
                let table = RecordTable(name: "pair", columns: [.text("id"), .text("nickname", nullable: true)])
                var columns = ColumnReader(row, of: table)
                _ = try columns.next(String.self)
                _ = try columns.next(String.self)
            }
        }
    }

    @Test func leavingAColumnUnreadTraps() async {
        await #expect(processExitsWith: .failure) {
            let db = try Gadget.database()
            try Gadget.insert(Gadget.full, into: db)
            _ = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets") { row in
                var columns = ColumnReader(row, of: Gadget.table)
                _ = try columns.next(String.self)
                columns.finish()
            }
        }
    }
}
