import LiveRepository
import LiveSocial

/// Writes the records of one mutation to the server database, logging each change.
///
/// Every write gets a change-log sequence number and a real-time event; the events are
/// published after the transaction commits. ``result(sequence:)`` gives the mutation's answer:
/// the final state of every record it touched, in the order first touched.
struct ServerWriter {
    let database: any ServerStore
    /// The timestamp the writes use (`createdAt`, `updatedAt`...).
    var now: Double
    private(set) var events: [SocialEvent] = []
    private var order: [SocialRecordKey] = []
    private var states: [SocialRecordKey: SocialRecord] = [:]
    private var removed: [SocialRecordKey] = []

    init(database: any ServerStore, now: Double) {
        self.database = database
        self.now = now
    }

    /// Inserts a new record.
    mutating func create<Record: CacheRecord>(_ record: Record) throws {
        try write(record, created: true)
    }

    /// Replaces an existing record.
    mutating func update<Record: CacheRecord>(_ record: Record) throws {
        try write(record, created: false)
    }

    /// Removes a record for good.
    mutating func remove(_ key: SocialRecordKey) throws {
        // Who may learn of the removal depends on the record's channel, which the log keeps.
        let channelId = try database.load(key).flatMap { try database.channelId(of: $0) }
        try database.remove(key)
        let sequence = try database.appendChange(ChangeRecord(key, isRemoval: true, scope: nil, channelId: channelId))
        events.append(.deleted(key, sequence: sequence))
        states[key] = nil
        removed.append(key)
    }

    /// Adds an unchanged record to the answer (a repeated, idempotent request).
    mutating func answer<Record: CacheRecord>(with record: Record) {
        guard let wrapped = SocialRecord(record) else { return }
        track(wrapped)
    }

    func result(sequence: Int64) -> SocialMutationResult {
        SocialMutationResult(records: order.compactMap { states[$0] }, deleted: removed, sequence: sequence)
    }

    private mutating func write<Record: CacheRecord>(_ record: Record, created: Bool) throws {
        guard let wrapped = SocialRecord(record) else {
            preconditionFailure("\(Record.self) is not a model of the social domain")
        }
        try database.upsert(record)
        let sequence = try database.appendChange(ChangeRecord(
            wrapped.key, isRemoval: false, scope: ChangeRecord.scope(of: wrapped), isCreation: created))
        events.append(created ? .created(wrapped, sequence: sequence) : .updated(wrapped, sequence: sequence))
        track(wrapped)
    }

    private mutating func track(_ record: SocialRecord) {
        if !order.contains(record.key) { order.append(record.key) }
        states[record.key] = record
    }
}
