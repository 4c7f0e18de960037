import Foundation
import TestSupport

/// Damage done to a client's closed cache file for `SocialClientCorruptionTests`: a cut, or
/// garbage over the header, the schema page or another page.
enum CacheFileDamage: String, CaseIterable {
    case truncate
    case garbageHeader
    case garbageSchema
    case garbagePage

    /// Damages the file at `url`; returns what was done, for the report.
    func apply(to url: URL, random: inout SeededRandom) throws -> String {
        let size = Int((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0)
        let pageSize = 4096
        let pages = max(1, size / pageSize)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let (offset, count): (Int, Int)
        switch self {
        case .truncate:
            let length = random.chance(20) ? 0 : random.below(max(1, size))
            try handle.truncate(atOffset: UInt64(length))
            return "cut at \(length) of \(size) bytes"
        case .garbageHeader:
            (offset, count) = (0, 16 + random.below(84))
        case .garbageSchema:
            (offset, count) = (100, pageSize - 100)
        case .garbagePage:
            (offset, count) = ((1 + random.below(max(1, pages - 1))) * pageSize, pageSize)
        }
        var garbage = Data(count: count)
        for index in 0..<count { garbage[index] = UInt8(truncatingIfNeeded: random.next()) }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: garbage)
        return "\(count) garbage bytes at \(offset) of \(size)"
    }
}
