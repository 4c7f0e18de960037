import Foundation

/// Makes files and folders read-only for a test, in a way that holds even for root: `chmod` for
/// an ordinary user, the immutable attribute (`chattr +i`, which root cannot write through
/// either) for root. ``unlock()`` undoes it; call it on every path (releasing does too), or the
/// temporary directory cannot be removed.
final class ReadOnlyPaths {
    /// A lock that could not be taken, with the reason.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private var locked: [URL] = []
    private let asRoot = getuid() == 0

    /// Makes `url` read-only.
    func lock(_ url: URL) throws {
        if asRoot {
            let (status, output) = SystemTool.run("/usr/bin/chattr", ["+i", url.path])
            guard status == 0 else { throw Failure(message: "chattr +i failed (\(status)): \(output)") }
        } else {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            try FileManager.default.setAttributes([.posixPermissions: isFolder.boolValue ? 0o555 : 0o444], ofItemAtPath: url.path)
        }
        locked.append(url)
    }

    /// Makes everything locked writable again, in reverse order.
    func unlock() {
        for url in locked.reversed() {
            if asRoot {
                _ = SystemTool.run("/usr/bin/chattr", ["-i", url.path])
            } else {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
                try? FileManager.default.setAttributes([.posixPermissions: isFolder.boolValue ? 0o755 : 0o644], ofItemAtPath: url.path)
            }
        }
        locked = []
    }

    deinit { unlock() }
}
