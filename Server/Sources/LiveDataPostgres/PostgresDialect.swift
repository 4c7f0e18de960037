import LiveRepository
import LiveSocial

/// The store's SQL in PostgreSQL's dialect: `$n` placeholders, `IS DISTINCT FROM`, `TRUE` and
/// `FALSE`, and orderings that put NULLs where SQLite does (first ascending, last descending).
enum PostgresDialect {
    /// `sql` with each `?` outside quotes replaced by `$n`, numbered from `first`.
    static func numbered(_ sql: String, from first: Int = 1) -> (sql: String, next: Int) {
        var result = ""
        result.reserveCapacity(sql.count + 8)
        var number = first
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                result += "$\(number)"
                number += 1
            } else {
                result.append(character)
            }
        }
        return (result, number)
    }

    /// A query's predicates as a condition with `?` placeholders, and their bindings.
    static func condition<Record: CacheRecord>(of query: CacheQuery<Record>) -> (sql: String, bindings: [SQLiteValue]) {
        guard !query.predicates.isEmpty else { return ("TRUE", []) }
        var bindings: [SQLiteValue] = []
        let parts = query.predicates.map { predicate -> String in
            switch predicate {
            case .equals(let column, let value):
                bindings.append(value)
                return "\(column) = ?"
            case .notEquals(let column, let value):
                bindings.append(value)
                return "\(column) IS DISTINCT FROM ?"
            case .oneOf(let column, let values):
                guard !values.isEmpty else { return "FALSE" }
                bindings += values
                return "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
            case .lessThan(let column, let value):
                bindings.append(value)
                return "\(column) < ?"
            case .greaterThan(let column, let value):
                bindings.append(value)
                return "\(column) > ?"
            case .isNull(let column):
                return "\(column) IS NULL"
            case .isNotNull(let column):
                return "\(column) IS NOT NULL"
            }
        }
        return (parts.joined(separator: " AND "), bindings)
    }

    /// A query's ordering, NULL sort values first when ascending and last when descending, as in SQLite.
    static func orderBy<Record: CacheRecord>(_ query: CacheQuery<Record>) -> String {
        query.ascending
            ? "ORDER BY \(query.sortColumn) ASC NULLS FIRST, id ASC"
            : "ORDER BY \(query.sortColumn) DESC NULLS LAST, id DESC"
    }

    /// The statements that make a record table and its indexes, if missing.
    static func createStatements(_ table: RecordTable) -> [String] {
        let definitions = table.columns.map { column in
            var text = "\(column.name) \(PostgresValues.type(of: column))"
            if column.name == "id" {
                text += " PRIMARY KEY"
            } else if !column.isNullable {
                text += " NOT NULL"
            }
            return text
        }
        var statements = ["CREATE TABLE IF NOT EXISTS \(table.name) (\(definitions.joined(separator: ", ")))"]
        for index in table.indexes {
            let name = "\(table.name)_\(index.joined(separator: "_"))"
            statements.append("CREATE INDEX IF NOT EXISTS \(name) ON \(table.name) (\(index.joined(separator: ", ")))")
        }
        return statements
    }

    /// Inserts a record, or replaces every column of the record with its id.
    static func upsert(_ table: RecordTable) -> String {
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        let updates = table.columns.dropFirst().map { "\($0.name) = EXCLUDED.\($0.name)" }.joined(separator: ", ")
        return "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(marks)) ON CONFLICT (id) DO UPDATE SET \(updates)"
    }

    /// The server's own tables: the change log (its sequence numbers taken from the counter row
    /// `changelog` of `server_counters`), counters, the clock and idempotent answers.
    static let serverTables = [
        """
        CREATE TABLE IF NOT EXISTS server_changelog (
            sequence BIGINT PRIMARY KEY, kind TEXT COLLATE "C" NOT NULL, recordId TEXT COLLATE "C" NOT NULL,
            isRemoval BIGINT NOT NULL, scope TEXT COLLATE "C", isCreation BIGINT NOT NULL DEFAULT 0,
            channelId TEXT COLLATE "C")
        """,
        "CREATE INDEX IF NOT EXISTS server_changelog_scope ON server_changelog (scope, sequence)",
        "CREATE TABLE IF NOT EXISTS server_counters (name TEXT COLLATE \"C\" PRIMARY KEY, value BIGINT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS server_clock (id BIGINT PRIMARY KEY CHECK (id = 1), lastTimestamp DOUBLE PRECISION NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS server_idempotency (
            userId TEXT COLLATE "C" NOT NULL, requestKey TEXT COLLATE "C" NOT NULL, answer BYTEA NOT NULL,
            storedAt DOUBLE PRECISION NOT NULL, PRIMARY KEY (userId, requestKey))
        """,
        "CREATE INDEX IF NOT EXISTS server_idempotency_age ON server_idempotency (storedAt)",
        // The change log's counter: a name no other counter takes (they are record kinds and markers).
        "INSERT INTO server_counters (name, value) VALUES ('$changelog', 0) ON CONFLICT (name) DO NOTHING",
    ]

    /// The name of the change log's counter row.
    static let changeLogCounter = "$changelog"
}
