#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The named pipes of wake-up folders as last listed, so that a commit's wake-up lists a folder
/// only when it changed: one `stat(2)` instead of reading the folder each time (measured on
/// Linux: the folder read was about half of a commit's wake-up, 60 of 110 µs, with the process
/// just woken).
///
/// A listing is trusted while the folder's modification time is the one it had when listed, and
/// only when that time is safely older than the listing: a pipe made or deleted in the same tick
/// of the file system's clock as an earlier change leaves the time as it was (Linux stamps files
/// from a clock that moves in ticks of up to 10 ms, some file systems in whole seconds), so a
/// folder changed too recently is listed again each time, as Git does with its index's "racy"
/// entries. A folder whose times carry no fraction of a second is taken to keep whole seconds.
///
/// A listing that is stale anyway (the wall clock set back past a change) costs latency, never a
/// change: the process it misses finds the commit with its slow check.
struct PipeRoster {
    private struct Listing {
        var modified: timespec
        var listedAt: timespec
        var names: [String]
    }

    private var listings: [String: Listing] = [:]

    /// The pipes of `folder`: the last listing while it holds, else a new one from `list`.
    mutating func names(in folder: String, list: (String) -> [String]) -> [String] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var status = stat()
        guard stat(folder, &status) == 0 else {
            listings[folder] = nil
            return []
        }
        let modified = Self.modificationTime(status)
        if let listing = listings[folder], listing.modified == modified, Self.isSettled(modified, at: listing.listedAt) {
            return listing.names
        }
        let names = list(folder)
        listings[folder] = Listing(modified: modified, listedAt: now, names: names)
        return names
    }

    /// Forgets the listing of `folder`: its next wake-up lists it again.
    mutating func forget(_ folder: String) {
        listings[folder] = nil
    }

    /// Whether a folder last changed at `modified` cannot have changed again in the same tick
    /// after a listing begun at `listedAt`.
    static func isSettled(_ modified: timespec, at listedAt: timespec) -> Bool {
        // Whole seconds: two of them; else 50 ms, five times Linux's coarsest tick.
        let margin: Int = modified.tv_nsec == 0 ? 2_000_000_000 : 50_000_000
        let elapsed = (Int(listedAt.tv_sec) - Int(modified.tv_sec)) * 1_000_000_000 + (listedAt.tv_nsec - modified.tv_nsec)
        return elapsed > margin
    }

    private static func modificationTime(_ status: stat) -> timespec {
        #if canImport(Darwin)
        status.st_mtimespec
        #else
        status.st_mtim
        #endif
    }
}

extension timespec {
    fileprivate static func == (lhs: timespec, rhs: timespec) -> Bool {
        lhs.tv_sec == rhs.tv_sec && lhs.tv_nsec == rhs.tv_nsec
    }
}
