import Foundation

/// The process's resident set size.
enum ResidentMemory {
    /// Resident bytes now: resident pages from `/proc/self/statm` times the page size. Nil where
    /// there is no `/proc` (Darwin; the memory scenario then reports n/a).
    static func bytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}
