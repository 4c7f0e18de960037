#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The named pipes of wake-up folders as last listed, each kept open for writing, so that a
/// commit's wake-up is one `fstat(2)` of the folder and one `write(2)` per pipe.
///
/// Measured on Linux, with the process just woken (as it is between a user's commits): reading
/// the folder was about half of a wake-up (60 of 110 µs); once the listing was kept, the
/// folder's `stat` by path and each pipe's `open` and `close` still took 41 µs before the first
/// byte left (20, 16 and 5 at the median), now an `fstat` of the folder's open descriptor.
///
/// A listing is trusted while the folder's modification time is the one it had when listed, and
/// only when that time is safely older than the listing: a pipe made or deleted in the same tick
/// of the file system's clock as an earlier change leaves the time as it was (Linux stamps files
/// from a clock that moves in ticks of up to 10 ms, some file systems in whole seconds), so a
/// folder changed too recently is listed again each time, as Git does with its index's "racy"
/// entries. A folder whose times carry no fraction of a second is taken to keep whole seconds.
/// A folder deleted since it was opened (no links left) is opened again by its path.
///
/// A listing that is stale anyway (the wall clock set back past a change) costs latency, never a
/// change: the process it misses finds the commit with its slow check.
///
/// The process's roster lives behind a lock of ``WakeChannel``'s, and the descriptors it hands
/// out are written to under that lock: a pipe dropped by another thread could otherwise have its
/// number reused by an unrelated file before the write.
struct PipeRoster {
    /// A pipe of a folder's listing: its path and the descriptor it is written through.
    struct Pipe: Equatable {
        let path: String
        let descriptor: Int32
    }

    private struct Listing {
        /// The folder, open for `fstat(2)`.
        var folder: Int32
        var modified: timespec
        var listedAt: timespec
        var pipes: [Pipe]
    }

    private var listings: [String: Listing] = [:]

    /// The pipes of `folder`, open for writing: the last listing while it holds, else a new one
    /// from `list` (the names of the folder's pipes), opening each pipe not already open with
    /// `open` (nil when it cannot be opened: it is left out) and closing those no longer listed.
    mutating func pipes(in folder: String, list: (String) -> [String], open: (String) -> Int32?) -> [Pipe] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var status = stat()
        var listing = listings[folder]
        if let current = listing, fstat(current.folder, &status) != 0 || status.st_nlink == 0 {
            forget(folder)
            listing = nil
        }
        if listing == nil {
            let descriptor = Self.openFolder(folder)
            guard descriptor >= 0 else { return [] }
            guard fstat(descriptor, &status) == 0 else {
                _ = close(descriptor)
                return []
            }
            listing = Listing(folder: descriptor, modified: timespec(), listedAt: timespec(), pipes: [])
        }
        guard var listing else { return [] }
        let modified = Self.modificationTime(status)
        if listing.modified == modified, Self.isSettled(modified, at: listing.listedAt) {
            return listing.pipes
        }
        let paths = list(folder).map { "\(folder)/\($0)" }
        var pipes: [Pipe] = []
        for path in paths {
            if let kept = listing.pipes.first(where: { $0.path == path }) {
                pipes.append(kept)
            } else if let descriptor = open(path) {
                pipes.append(Pipe(path: path, descriptor: descriptor))
            }
        }
        for pipe in listing.pipes where !paths.contains(pipe.path) { _ = close(pipe.descriptor) }
        listing.modified = modified
        listing.listedAt = now
        listing.pipes = pipes
        listings[folder] = listing
        return pipes
    }

    /// Closes a pipe of `folder` whose reader is gone and leaves it out of the listing.
    mutating func drop(_ pipe: Pipe, of folder: String) {
        guard var listing = listings[folder], let index = listing.pipes.firstIndex(of: pipe) else { return }
        _ = close(pipe.descriptor)
        listing.pipes.remove(at: index)
        listings[folder] = listing
    }

    /// Forgets the listing of `folder` and closes its descriptors: its next wake-up lists it again.
    mutating func forget(_ folder: String) {
        guard let listing = listings.removeValue(forKey: folder) else { return }
        for pipe in listing.pipes { _ = close(pipe.descriptor) }
        _ = close(listing.folder)
    }

    /// Whether a folder last changed at `modified` cannot have changed again in the same tick
    /// after a listing begun at `listedAt`.
    static func isSettled(_ modified: timespec, at listedAt: timespec) -> Bool {
        // Whole seconds: two of them; else 50 ms, five times Linux's coarsest tick.
        let margin: Int = modified.tv_nsec == 0 ? 2_000_000_000 : 50_000_000
        let elapsed = (Int(listedAt.tv_sec) - Int(modified.tv_sec)) * 1_000_000_000 + (listedAt.tv_nsec - modified.tv_nsec)
        return elapsed > margin
    }

    private static func openFolder(_ folder: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #else
        Darwin.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #endif
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
