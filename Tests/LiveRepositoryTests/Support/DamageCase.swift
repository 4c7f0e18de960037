import Foundation
import TestSupport

/// One corruption case of `LiveStoreCorruptionTests`: what the cache held, and the damage done
/// to it, drawn from a seed.
///
/// Cases go round the variants (``Variant/all``) so that every kind of damage is played in the
/// quick mode; each draws its own parameters (how many notes, where to cut, which page) from its
/// generator.
struct DamageCase: CustomStringConvertible {
    /// A kind of damage, with the detail that picks its variant.
    enum Variant: Hashable, CustomStringConvertible {
        case truncate(Cut)
        case garbage(CacheDamage.PageRole)
        case walLost(keepingSharedMemory: Bool)
        case readOnly(folder: Bool)
        case diskFull(atOpen: Bool)
        case injectedFull
        /// Damage in a folder that is read-only, so the file cannot be moved aside: found at
        /// open (the schema page) or while running (a table page).
        case damagedInReadOnlyFolder(atOpen: Bool)
        /// Damage on a full disk, so no new cache can be made in its place: found at open or
        /// while running.
        case damagedOnFullDisk(atOpen: Bool)

        /// Where a truncation cuts.
        enum Cut: String, CaseIterable { case toZero, insideHeader, midPage, atPageBoundary }

        static let all: [Variant] =
            Cut.allCases.map(Variant.truncate) + CacheDamage.PageRole.allCases.map(Variant.garbage)
            + [.walLost(keepingSharedMemory: false), .walLost(keepingSharedMemory: true),
               .readOnly(folder: false), .readOnly(folder: true),
               .diskFull(atOpen: false), .diskFull(atOpen: true), .injectedFull,
               .damagedInReadOnlyFolder(atOpen: true), .damagedInReadOnlyFolder(atOpen: false),
               .damagedOnFullDisk(atOpen: true), .damagedOnFullDisk(atOpen: false)]

        /// The kind, for the summary's counts.
        var kind: String {
            switch self {
            case .truncate: "truncate"
            case .garbage: "garbage"
            case .walLost: "walLost"
            case .readOnly: "readOnly"
            case .diskFull: "diskFull"
            case .injectedFull: "injectedFull"
            case .damagedInReadOnlyFolder: "damagedReadOnly"
            case .damagedOnFullDisk: "damagedFull"
            }
        }

        var description: String {
            switch self {
            case .truncate(let cut): "truncate(\(cut.rawValue))"
            case .garbage(let role): "garbage(\(role.rawValue) page)"
            case .walLost(let shm): "walLost(\(shm ? "stale -shm kept" : "no -shm"))"
            case .readOnly(let folder): "readOnly(\(folder ? "file and folder" : "file"))"
            case .diskFull(let atOpen): "diskFull(\(atOpen ? "full before opening" : "fills while writing"))"
            case .injectedFull: "injectedFull(PRAGMA max_page_count)"
            case .damagedInReadOnlyFolder(let atOpen): "damagedInReadOnlyFolder(\(atOpen ? "schema page" : "table page"))"
            case .damagedOnFullDisk(let atOpen): "damagedOnFullDisk(\(atOpen ? "schema page" : "table page"))"
            }
        }
    }

    let seed: UInt64
    let index: Int
    let variant: Variant
    /// The notes in the cache before the damage.
    let notes: [Note]
    /// The notes committed after the last checkpoint, in the WAL that is then lost (`walLost`).
    let walNotes: [Note]
    /// Parameters drawn while damaging (the cut, the page, the span), for the report.
    var parameters: [String] = []
    /// The case's own generator, for the parameters it draws while playing.
    var random: SeededRandom

    /// The `index`-th case of `seed`; `casesPerSeed` cases per seed take turns over the variants.
    init(seed: UInt64, index: Int, casesPerSeed: Int) {
        self.seed = seed
        self.index = index
        let turn = Int((seed - 1) % UInt64(Int.max / 2)) * casesPerSeed + index
        let variant = Variant.all[turn % Variant.all.count]
        self.variant = variant
        var random = SeededRandom(seed: seed &* 1_000_003 &+ UInt64(index))
        // A small disk holds fewer and shorter notes.
        let isSmall = switch variant {
        case .diskFull, .damagedOnFullDisk: true
        default: false
        }
        let count = isSmall ? 20 + random.below(60) : 5 + random.below(300)
        var made: [Note] = []
        for number in 1...count {
            // Now and then a body longer than a page, so that overflow pages exist.
            let length = random.chance(5) ? 4_000 + random.below(6_000) : random.below(isSmall ? 400 : 900)
            let letter = Character(UnicodeScalar(UInt8(97 + random.below(26))))
            made.append(Note(id: "n\(number)", folder: random.chance(50) ? "inbox" : "archive",
                             rank: random.below(1_000), body: String(repeating: letter, count: length)))
        }
        notes = made
        if case .walLost = variant {
            walNotes = (1...(1 + random.below(40))).map { Note(id: "w\($0)", rank: $0, body: "committed to the WAL \($0)") }
        } else {
            walNotes = []
        }
        self.random = random
    }

    var description: String {
        "seed \(seed) case \(index): \(variant), \(notes.count) notes"
            + (walNotes.isEmpty ? "" : " + \(walNotes.count) in the WAL")
            + (parameters.isEmpty ? "" : "; " + parameters.joined(separator: ", "))
    }

    /// Damages the closed cache file at `url` as the variant says (the file-level kinds only:
    /// truncation and garbage; the others are played by the check itself).
    mutating func damageFile(at url: URL) throws {
        let bytes = try Data(contentsOf: url)
        let pageSize = CacheDamage.pageSize(of: bytes)
        let pages = bytes.count / pageSize
        switch variant {
        case .truncate(let cut):
            let length: Int
            switch cut {
            case .toZero: length = 0
            case .insideHeader: length = 1 + random.below(99)
            case .midPage: length = random.below(pages) * pageSize + 1 + random.below(pageSize - 1)
            case .atPageBoundary: length = (1 + random.below(max(1, pages - 1))) * pageSize
            }
            parameters.append("cut at \(length) of \(bytes.count) bytes (page size \(pageSize))")
            try CacheDamage.truncate(url, to: length)
        case .garbage(let role):
            let roles = CacheDamage.pageRoles(of: bytes)
            let (offset, count): (Int, Int)
            if role == .header {
                let start = random.below(100)
                (offset, count) = (start, 1 + random.below(100 - start))
            } else {
                let candidates = roles.filter { $0.value == role }.map(\.key).sorted()
                // A file without such a page (no overflow page, say) gets a data page instead.
                let page = candidates.isEmpty ? (pages > 1 ? 2 + random.below(pages - 1) : 1) : random.pick(candidates)
                let base = (page - 1) * pageSize + (page == 1 ? 100 : 0)
                let room = pageSize - (page == 1 ? 100 : 0)
                // Mostly the whole page; sometimes a span inside it.
                if random.chance(70) {
                    (offset, count) = (base, room)
                } else {
                    let start = random.below(room)
                    (offset, count) = (base + start, 1 + random.below(room - start))
                }
                parameters.append("page \(page) of \(pages)\(candidates.isEmpty ? " (no \(role.rawValue) page: another)" : "")")
            }
            parameters.append("\(count) garbage bytes at \(offset)")
            try CacheDamage.overwrite(url, at: offset, count: count, with: &random)
        default:
            break
        }
    }
}
