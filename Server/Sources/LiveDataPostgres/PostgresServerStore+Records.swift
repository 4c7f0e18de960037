import LiveRepository
import LiveSocial
import LiveSocialServer

extension PostgresServerStore {
    public func load<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        let table = Record.table
        guard let row = try run("SELECT \(table.columnList) FROM \(table.name) WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        return try decode(type, PostgresValues.values(of: row))
    }

    public func upsert<Record: CacheRecord>(_ record: Record) throws {
        try write(PostgresDialect.upsert(Record.table), record.columnValues)
    }

    public func remove(_ key: SocialRecordKey) throws {
        try write("DELETE FROM \(key.kind.table.name) WHERE id = ?", [.text(key.id)])
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
        try run("SELECT userId, membership FROM \(ChannelMember.table.name) WHERE channelId = ?", [.text(channelId)])
            .map { row in
                let values = try PostgresValues.values(of: row)
                guard case .text(let userId) = values[0], case .text(let membership) = values[1] else {
                    throw PostgresStoreError.database("a membership of \(channelId) has no user or state")
                }
                return (userId, membership)
            }
    }
}
