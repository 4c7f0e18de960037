#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// An advisory lock on a file (`flock`), shared or exclusive, between processes.
///
/// The system releases the lock when its holder closes the file or dies, even by `SIGKILL`,
/// so a lock never outlives a crashed app. Locks belong to an open file, not to a process: two
/// `FileLock`s on one path in one process exclude each other just as two processes do.
///
/// `Sendable`: the descriptor is kept in a `Mutex`.
final class FileLock: Sendable {
    /// The locked file.
    let url: URL
    private let descriptor: Mutex<Int32?>

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = Mutex(descriptor)
    }

    deinit { unlock() }

    /// Locks `url` (creating the file if needed), waiting while another holder excludes it.
    ///
    /// - Parameter exclusive: whether no one else may hold the lock, shared or not.
    /// - Throws: a `CocoaError` when the file cannot be created or locked.
    static func lock(_ url: URL, exclusive: Bool) throws -> FileLock {
        guard let lock = try lock(url, exclusive: exclusive, wait: true) else {
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path])
        }
        return lock
    }

    /// Whether someone holds a lock on `url` now (a file that does not exist is not locked).
    static func isHeld(_ url: URL) -> Bool {
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        // Taking the lock exclusively fails exactly when someone holds it; the lock taken is
        // released at once, when the `FileLock` is dropped.
        do {
            return try lock(url, exclusive: true, wait: false) == nil
        } catch {
            return false
        }
    }

    /// Releases the lock; later calls do nothing.
    func unlock() {
        descriptor.withLock { descriptor in
            if let open = descriptor { _ = close(open) }
            descriptor = nil
        }
    }

    /// The lock, or nil when `wait` is false and someone else excludes it.
    private static func lock(_ url: URL, exclusive: Bool, wait: Bool) throws -> FileLock? {
        let opened = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw failure(url) }
        var operation = exclusive ? LOCK_EX : LOCK_SH
        if !wait { operation |= LOCK_NB }
        while flock(opened, operation) != 0 {
            let code = errno
            if code == EINTR { continue }
            _ = close(opened)
            if code == EWOULDBLOCK { return nil }
            throw failure(url, code: code)
        }
        return FileLock(url: url, descriptor: opened)
    }

    private static func failure(_ url: URL, code: Int32 = errno) -> CocoaError {
        let reason = String(cString: strerror(code))
        return CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedFailureReasonErrorKey: reason])
    }
}
