import LiveRepository
import PostgresNIO

/// What a transaction of ``PostgresServerStore`` knows without asking the database: the answers
/// of reads it sent together ahead of need (`prepareToRead(records:membershipsOf:)`), and the
/// records it wrote itself.
///
/// Each read would otherwise be a trip of its own. The answers are a shortcut, never a
/// difference in what the transaction sees:
/// - a record the transaction wrote (or removed) is read back as written, from ``written(_:id:)``;
/// - any other answer that names a table the transaction wrote is forgotten, except the reads
///   of other records by id, which a write of one record cannot change;
/// - a rollback to a savepoint takes back what was written after it (the store puts back the
///   value it had at the savepoint).
struct ReadAhead {
    /// A read, by its SQL (`?` placeholders) and bindings.
    struct Statement: Hashable {
        let sql: String
        let values: [SQLiteValue]
        /// Whether it reads one record by id (`SELECT … FROM t WHERE id = ?`).
        let readsOneRecord: Bool
    }

    /// What a transaction wrote to one record: the record, or nil once removed.
    typealias Written = (any CacheRecord)?

    /// Each read's rows, with the words of its SQL (the tables it names among them).
    private var answers: [Statement: (rows: [PostgresRow], words: Set<Substring>)] = [:]
    /// The records the transaction wrote, by table and id.
    private var writes: [String: [String: Written]] = [:]

    /// Keeps the rows of a read sent ahead of need.
    mutating func keep(_ statement: Statement, rows: [PostgresRow]) {
        answers[statement] = (rows, Set(Self.words(of: statement.sql)))
    }

    /// The rows of a read, if sent ahead and not forgotten since.
    func answer(_ sql: String, _ values: [SQLiteValue], readsOneRecord: Bool) -> [PostgresRow]? {
        guard !answers.isEmpty else { return nil }
        return answers[Statement(sql: sql, values: values, readsOneRecord: readsOneRecord)]?.rows
    }

    /// What the transaction wrote to the record `id` of `table`: `.some(record)`, `.some(nil)`
    /// when it removed it, nil when it did not write it.
    func written(_ table: String, id: String) -> Written? {
        writes[table]?[id]
    }

    /// Notes a write of one record (nil: its removal), and forgets the answers it could change.
    mutating func wrote(_ table: String, id: String, _ record: Written) {
        writes[table, default: [:]][id] = .some(record)
        guard !answers.isEmpty else { return }
        let name = Substring(table)
        answers = answers.filter { !$0.value.words.contains(name) || $0.key.readsOneRecord }
    }

    /// Forgets the answers that a write statement (other than one record's) could change: those
    /// that name the table it writes, and what it wrote there; all of them when its table cannot be told.
    mutating func forget(afterWriting sql: String) {
        guard let table = Self.writtenTable(sql) else {
            writes.removeAll()
            return answers.removeAll()
        }
        forget(afterWritingTo: table)
    }

    /// Forgets the answers that name `table`, and the records written there.
    mutating func forget(afterWritingTo table: String) {
        writes[table] = nil
        guard !answers.isEmpty else { return }
        let name = Substring(table)
        answers = answers.filter { !$0.value.words.contains(name) }
    }

    /// The table that an `INSERT INTO t`, `UPDATE t` or `DELETE FROM t` writes; nil for any other statement.
    static func writtenTable(_ sql: String) -> String? {
        let words = Self.words(of: sql)
        guard let verb = words.first?.uppercased(), words.count > 2 else { return nil }
        switch verb {
        case "INSERT" where words[1].uppercased() == "INTO": return String(words[2])
        case "DELETE" where words[1].uppercased() == "FROM": return String(words[2])
        case "UPDATE": return String(words[1])
        default: return nil
        }
    }

    /// The identifiers and keywords of a statement: runs of letters, digits and underscores.
    private static func words(of sql: String) -> [Substring] {
        sql.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
