import CSQLite
import Foundation
import TestSupport
@testable import LiveRepository

/// Plays one ``DamageCase``: builds a cache, damages it, opens a `LiveStore` over it, uses it
/// (reads, a live object, writes), and checks the rule of the corruption tests at each step:
/// the store recovers (the damaged file moved aside, the reason in `recovery` or
/// `latestRecovery`) or throws an error naming the file and the cause; a healthy file is never
/// moved aside; what the store reads is what SQLite itself reads from the same bytes; a write
/// that fails says so, and the store works again afterwards.
@MainActor
struct DamagedStoreCheck {
    /// How the store met the damage.
    enum Outcome: String {
        /// Opening moved the file aside and made a new one.
        case recoveredAtOpen
        /// A read or write found the damage and the store rebuilt the file while running.
        case recoveredWhileRunning
        /// Opening threw an error naming the file and the cause.
        case thrownAtOpen
        /// The store opened and failed the writes it could not make, with a clear error.
        case thrownOnUse
        /// SQLite found nothing wrong: the store read what SQLite reads and worked.
        case unaffected
        /// The case could not be played here (no mount, no immutable attribute).
        case skipped
    }

    var damage: DamageCase
    /// A small file system for the full-disk cases; nil where none could be mounted.
    let disk: SmallDisk?
    /// The steps played so far, for the report.
    var steps: [String] = []
    /// What went wrong, if anything: "expected … , got …".
    var problems: [String] = []
    var outcome = Outcome.unaffected

    nonisolated static let allNotes = "SELECT id, folder, rank, body FROM notes ORDER BY id"

    init(_ damage: DamageCase, disk: SmallDisk?) {
        self.damage = damage
        self.disk = disk
    }

    // MARK: Playing

    mutating func play() async {
        do {
            switch damage.variant {
            case .truncate, .garbage, .walLost: try await playDamagedFile()
            case .readOnly(let folder): try await playReadOnly(folder: folder)
            case .diskFull(let atOpen): try await playDiskFull(atOpen: atOpen)
            case .injectedFull: try await playInjectedFull()
            case .damagedInReadOnlyFolder(let atOpen): try await playStuckDamage(atOpen: atOpen, onFullDisk: false)
            case .damagedOnFullDisk(let atOpen): try await playStuckDamage(atOpen: atOpen, onFullDisk: true)
            }
        } catch {
            fail("the case itself failed unexpectedly", expected: "no error outside the store's calls", actual: "\(error)")
        }
    }

    mutating func step(_ text: String) { steps.append(text) }

    mutating func fail(_ what: String, expected: String, actual: String) {
        problems.append("\(what): expected \(expected), got \(actual)")
    }

    /// Checks that `error` names the file at `url` and carries the SQLite cause.
    mutating func expectNamed(_ error: any Error, file url: URL, during: String) {
        let text = "\(error)"
        if !text.contains(url.path) {
            fail("the error of \(during) does not name the file", expected: "a description containing \(url.path)", actual: text)
        }
        if let sqlite = error as? SQLiteError, !text.contains(sqlite.message) || sqlite.message.isEmpty {
            fail("the error of \(during) does not give SQLite's cause", expected: "SQLite's message", actual: text)
        }
    }

    func damagedFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    // MARK: Truncation, garbage, a lost WAL

    private mutating func playDamagedFile() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: damage.notes)
        step("built \(damage.notes.count) notes")
        var expectedNotes = damage.notes
        if case .walLost(let keep) = damage.variant {
            try await CacheDamage.commitThenLoseTheWAL(damage.walNotes, at: url, keepingSharedMemory: keep)
            step("committed \(damage.walNotes.count) notes to the WAL, then lost it")
            expectedNotes = damage.notes  // what SQLite keeps: the WAL's commits are gone
        } else {
            try damage.damageFile(at: url)
            step("damaged: \(damage.parameters.joined(separator: ", "))")
        }
        let damagedBytes = try Data(contentsOf: url)
        var reference = PlainSQLite.readCopy(of: url, Self.allNotes)
        if case .failure(_, let message) = reference, message == "no such table: notes" {
            // A file with no schema left (an empty one is a valid database): the store makes its
            // schema there, and reads no notes.
            reference = .rows([])
        }
        let referenceCheck = PlainSQLite.readCopy(of: url, "PRAGMA integrity_check")
        step("plain SQLite reads: \(reference); integrity_check: \(referenceCheck.rows?.first?.first ?? "\(referenceCheck)")")
        if case .walLost = damage.variant, reference != .rows(Self.rows(expectedNotes)) {
            fail("plain SQLite after the WAL was lost", expected: "the \(expectedNotes.count) checkpointed notes", actual: "\(reference)")
        }

        let store: LiveStore
        do {
            store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        } catch {
            step("opening threw: \(error)")
            outcome = .thrownAtOpen
            expectNamed(error, file: url, during: "opening")
            // The folder is writable: a damaged cache is moved aside, never a reason to fail.
            fail("opening a damaged cache in a writable folder", expected: "a recovery", actual: "\(error)")
            if (try? Data(contentsOf: url)) != damagedBytes || !damagedFiles(in: directory.url).isEmpty {
                fail("a failed open changed the file", expected: "the damaged file left as it was", actual: "it changed or was moved")
            }
            return
        }
        defer { withExtendedLifetime(store) {} }
        if let recovery = store.recovery {
            step("opening recovered: \(recovery)")
            outcome = .recoveredAtOpen
            checkRecovery(recovery, atOpen: true, damagedBytes: damagedBytes, reference: referenceCheck, folder: directory.url)
        }
        await use(store, at: url, reference: store.recovery == nil ? reference : .rows([]), check: referenceCheck,
                  folder: directory.url)
        await store.close()
    }

    /// Checks a recovery (`atOpen`: made while opening): a damage SQLite itself sees, the
    /// damaged bytes kept where it says.
    private mutating func checkRecovery(_ recovery: CacheRecovery, atOpen: Bool, damagedBytes: Data?, reference: PlainSQLite.Answer, folder: URL) {
        // A damaged user version (header bytes 60-63) is no damage SQLite sees: the migrator
        // finds the file newer, or runs a migration again over its own tables.
        let isNewer = switch recovery.error {
        case SQLiteMigrator.Failure.databaseIsNewer, SQLiteMigrator.Failure.migrationFailed: true
        default: false
        }
        if !LiveStore.isRecoverable(recovery.error), !(atOpen && LiveStore.isDamageAtOpen(recovery.error)) {
            fail("recovered from an error that is no damage", expected: "corruption, a newer schema, or a schema too big to read at open",
                 actual: "\(recovery.error)")
        }
        if !isNewer, reference == .rows([["ok"]]), PlainSQLite.readCopy(of: recovery.movedTo, Self.allNotes).rows != nil {
            fail("a file SQLite finds healthy was moved aside", expected: "no recovery", actual: "\(recovery)")
        }
        if let damagedBytes, (try? Data(contentsOf: recovery.movedTo)) != damagedBytes {
            fail("the moved-aside file", expected: "the damaged bytes, kept for diagnosis", actual: "other bytes at \(recovery.movedTo.path)")
        }
        if !"\(recovery)".contains(recovery.movedTo.path) {
            fail("the recovery's description", expected: "the moved-aside path", actual: "\(recovery)")
        }
    }

    /// Uses an open store over a possibly damaged file: reads all notes, a live object, writes.
    mutating func use(
        _ store: LiveStore, at url: URL, reference: PlainSQLite.Answer, check: PlainSQLite.Answer, folder: URL
    ) async {
        let recoveredBefore = store.latestRecovery != nil
        // 1. Read every note.
        do {
            let rows = try await store.read { connection in
                try connection.query(Self.allNotes) { row in (0..<4).map { row.string($0) } }
            }
            step("read \(rows.count) notes")
            if reference.rows != rows {
                fail("the store's read", expected: "what plain SQLite reads (\(reference))", actual: "\(rows.count) rows")
            }
        } catch {
            step("reading threw: \(error)")
            expectNamed(error, file: url, during: "a read")
            if reference.rows != nil, !(reference.rows?.isEmpty ?? true) {
                fail("the store's read", expected: "the rows plain SQLite reads (\(reference))", actual: "\(error)")
            }
            expectRecoveredIfDamage(error, store: store)
        }
        // 2. A live object whose server answer is written to the cache.
        let served = Note(id: damage.notes.first?.id ?? "n1", rank: -1, body: "from the server")
        let object = LiveObject<Note>(store: store, id: served.id) { served }
        let log = Deliveries<(Note?, String?)>()
        let token = object.observeOnce(.fresh) { object, error in log.record((object.snapshot, error.map { "\($0)" })) }
        if let (snapshot, error) = try? await withTimeout({ try await log.next() }) {
            step("live object: \(snapshot.map { $0.body } ?? "nil"), error \(error ?? "none")")
            if error == nil, snapshot != served {
                fail("the live object", expected: "the server's note", actual: "\(String(describing: snapshot))")
            }
            if let error, !error.contains(url.path) {
                fail("the live object's error does not name the file", expected: url.path, actual: error)
            }
        } else {
            fail("the live object", expected: "a delivery within 20 s", actual: "none")
        }
        token.invalidate()
        // 3. Write a note; once more if the first found damage and rebuilt the file.
        let probe = Note(id: "probe", rank: 1, body: "written after the damage")
        for attempt in 1...2 {
            do {
                try await store.write { try $0.upsert(probe) }
                let body = try await store.read { try $0.queryFirst("SELECT body FROM notes WHERE id = 'probe'") { $0.string(0) } }
                step("write \(attempt) committed; read back \(body ?? "nil")")
                if body != probe.body { fail("a committed write", expected: "its note read back", actual: "\(body ?? "nil")") }
                break
            } catch {
                step("write \(attempt) threw: \(error)")
                expectNamed(error, file: url, during: "a write")
                expectRecoveredIfDamage(error, store: store)
                if attempt == 2 { fail("writing after a recovery", expected: "a working store", actual: "\(error)") }
                if !LiveStore.isRecoverable(error) { break }
            }
        }
        if let recovery = store.latestRecovery {
            if !recoveredBefore {
                outcome = .recoveredWhileRunning
                checkRecovery(recovery, atOpen: false, damagedBytes: nil, reference: check, folder: folder)
            }
            if damagedFiles(in: folder).isEmpty { fail("after a recovery", expected: "the damaged file kept", actual: "none in the folder") }
        } else if !damagedFiles(in: folder).isEmpty {
            fail("the folder", expected: "no file moved aside without a recovery", actual: "\(damagedFiles(in: folder))")
        }
    }

    /// After `error` from a store's call: a damage SQLite reports must have been recovered.
    private mutating func expectRecoveredIfDamage(_ error: any Error, store: LiveStore) {
        guard LiveStore.isRecoverable(error) else { return }
        if store.latestRecovery == nil {
            fail("after a call found the file damaged", expected: "a recovery in latestRecovery", actual: "none")
        }
    }

    static func rows(_ notes: [Note]) -> [[String]] {
        notes.sorted { $0.id < $1.id }.map { [$0.id, $0.folder, "\($0.rank)", $0.body] }
    }
}
