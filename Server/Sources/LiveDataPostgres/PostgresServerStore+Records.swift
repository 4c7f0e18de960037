import LiveRepository
import LiveSocial
import LiveSocialServer

extension PostgresServerStore {
    public func load<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        let table = Record.table
        if let written = readAhead?.written(table.name, id: id) { return written as? Record }
        guard let row = try run(Self.loadStatement(table), [.text(id)], readsOneRecord: true).first else {
            return nil
        }
        return try decode(type, PostgresValues.values(of: row))
    }

    public func upsert<Record: CacheRecord>(_ record: Record) throws {
        try write(PostgresDialect.upsert(Record.table), record.columnValues, row: (Record.table.name, record.id, record))
    }

    public func remove(_ key: SocialRecordKey) throws {
        try write("DELETE FROM \(key.kind.table.name) WHERE id = ?", [.text(key.id)], row: (key.kind.table.name, key.id, nil))
    }

    public func records<Record: CacheRecord>(
        _ query: CacheQuery<Record>, filter: StoreFilter?, after position: StorePosition?, limit: Int
    ) throws -> [(record: Record, sortValue: SQLiteValue)] {
        let table = Record.table
        var (clause, bindings) = PostgresDialect.condition(of: query)
        if let filter {
            clause = "(\(clause)) AND (\(filter.sql))"
            bindings += filter.bindings
        }
        if let position {
            // Comparisons and IS [NOT] NULL only: the same SQL in both dialects.
            let after = query.condition(after: position.sortValue, id: position.id)
            clause = "(\(clause)) AND \(after.sql)"
            bindings += after.bindings
        }
        bindings.append(.int(limit))
        let sortIndex = table.columnIndex(query.sortColumn) ?? 0
        let rows = try run(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(clause) \(PostgresDialect.orderBy(query)) LIMIT ?",
            bindings)
        return try rows.map { row in
            let values = try PostgresValues.values(of: row)
            return (record: try decode(Record.self, values), sortValue: values[sortIndex])
        }
    }

    public func channelMemberships(of channelId: String) throws -> [(userId: String, membership: String)] {
        try run(Self.membershipsStatement, [.text(channelId)])
            .map { row in
                let values = try PostgresValues.values(of: row)
                guard case .text(let userId) = values[0], case .text(let membership) = values[1] else {
                    throw PostgresStoreError.database("a membership of \(channelId) has no user or state")
                }
                return (userId, membership)
            }
    }

    public func prepareToRead(records keys: [SocialRecordKey], membershipsOf channelIds: [String]) throws {
        guard depth > 0 else { return }
        var ahead = readAhead ?? ReadAhead()
        var statements: [ReadAhead.Statement] = []
        func add(_ statement: ReadAhead.Statement) {
            if ahead.answer(statement.sql, statement.values, readsOneRecord: statement.readsOneRecord) == nil,
               !statements.contains(statement) {
                statements.append(statement)
            }
        }
        for key in keys where ahead.written(key.kind.table.name, id: key.id) == nil {
            add(ReadAhead.Statement(sql: Self.loadStatement(key.kind.table), values: [.text(key.id)], readsOneRecord: true))
        }
        for channelId in channelIds {
            add(ReadAhead.Statement(sql: Self.membershipsStatement, values: [.text(channelId)], readsOneRecord: false))
        }
        guard !statements.isEmpty else { return }
        let rows = try send(statements.map { query($0.sql, $0.values) })
        for (statement, rows) in zip(statements, rows) { ahead.keep(statement, rows: rows) }
        readAhead = ahead
    }

    /// Reads the record of a table by id (binding: the id).
    static func loadStatement(_ table: RecordTable) -> String {
        "SELECT \(table.columnList) FROM \(table.name) WHERE id = ?"
    }

    /// Reads the members of a channel and each one's membership (binding: the channel's id).
    static let membershipsStatement = "SELECT userId, membership FROM \(ChannelMember.table.name) WHERE channelId = ?"
}
