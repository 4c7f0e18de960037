import Foundation
import TestSupport

/// A small file system of its own (a `tmpfs` of a few MiB) for the corruption tests: it can be
/// filled up, and made read-only, which a plain folder cannot be for a test running as root.
///
/// Mounting needs privileges (root, on Linux): where it fails, ``mount(megabytes:)`` throws a
/// ``Failure`` that says why, and the tests that need it skip their cases with that reason.
/// Call ``unmount()`` on every path (it is safe to call twice; releasing the disk calls it too).
@MainActor
final class SmallDisk {
    /// The mount point.
    let url: URL
    private let holder: TemporaryDirectory
    private var isMounted = true

    /// A mount or remount that failed, with the tool's output.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private init(holder: TemporaryDirectory) {
        self.holder = holder
        url = holder.url
    }

    /// Mounts a `tmpfs` of `megabytes` MiB on a new temporary directory.
    static func mount(megabytes: Int) throws -> SmallDisk {
        #if os(Linux)
        let holder = try TemporaryDirectory()
        let (status, output) = SystemTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", holder.url.path])
        guard status == 0 else { throw Failure(message: "mount -t tmpfs failed (\(status)): \(output)") }
        return SmallDisk(holder: holder)
        #else
        throw Failure(message: "tmpfs mounts are for Linux only")
        #endif
    }

    /// Makes the whole file system read-only (`true`) or writable again.
    func setReadOnly(_ readOnly: Bool) throws {
        let (status, output) = SystemTool.run("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", url.path])
        guard status == 0 else { throw Failure(message: "remount failed (\(status)): \(output)") }
    }

    /// Fills the free space with a file named `filler`, to the last byte it takes.
    func fill() throws {
        let filler = url.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        try handle.seekToEnd()
        var chunk = 64 * 1024
        while chunk >= 1 {
            do { try handle.write(contentsOf: Data(count: chunk)) } catch { chunk /= 2 }
        }
    }

    /// Deletes the filler, freeing the space again.
    func free() {
        try? FileManager.default.removeItem(at: url.appendingPathComponent("filler"))
    }

    /// Unmounts the file system (everything on it is gone).
    func unmount() {
        guard isMounted else { return }
        isMounted = false
        _ = SystemTool.run("/bin/umount", ["-l", url.path])
    }

    isolated deinit { unmount() }
}
