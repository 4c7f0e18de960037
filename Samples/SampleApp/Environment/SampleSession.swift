import Foundation

/// A running app's mark on its data folder: while the session lasts, its user counts as signed in
/// there, for the apps of every other user on the same folder.
///
/// The mark is a shared `flock` on the user's `session.lock` (see ``SampleConfiguration/sessionURL``):
/// shared, so that two terminals of one user may run at once; released by the system when the
/// app quits or dies, even by `SIGKILL`, so a crash never leaves a user signed in.
///
/// The app uses it to leave the world alone when someone else is there: the other users' "while
/// you were away" actions are for a data folder nobody was watching.
public final class SampleSession: Sendable {
    /// The signed-in user.
    public let userId: String
    /// The data folder.
    public let dataFolder: URL
    private let lock: FileLock

    private init(userId: String, dataFolder: URL, lock: FileLock) {
        self.userId = userId
        self.dataFolder = dataFolder
        self.lock = lock
    }

    /// Marks the configuration's user as signed in on its data folder, creating the user's folder
    /// if needed, until ``end()`` (or until the session is released, or the process ends).
    ///
    /// - Throws: ``SampleError/dataFolder(_:reason:)`` when the user's folder cannot be created or
    ///   its lock file cannot be locked.
    public static func begin(_ configuration: SampleConfiguration) throws -> SampleSession {
        do {
            try FileManager.default.createDirectory(at: configuration.userFolder, withIntermediateDirectories: true)
            return SampleSession(
                userId: configuration.userId, dataFolder: configuration.dataFolder,
                lock: try FileLock.lock(configuration.sessionURL, exclusive: false))
        } catch {
            throw SampleError.dataFolder(configuration.userFolder.path, reason: error.localizedDescription)
        }
    }

    /// Ends the session: the user no longer counts as signed in (unless another app of theirs
    /// runs). Ending twice does nothing.
    public func end() { lock.unlock() }

    /// The users whose app runs on `dataFolder` now, sorted; this process's own sessions count too.
    public static func signedInUsers(in dataFolder: URL) -> [String] {
        let users = dataFolder.appendingPathComponent("users", isDirectory: true)
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: users.path)) ?? []
        return ids.sorted().filter { id in
            FileLock.isHeld(SampleConfiguration(dataFolder: dataFolder, userId: id).sessionURL)
        }
    }
}
