import Foundation

/// Where the sample keeps its data when the command line does not say.
///
/// The order is: the `--data` flag, then the `LIVEDATA_SAMPLE_DATA` environment variable, then
/// a per-user folder: `LiveDataSample` in the Application Support folder on Apple platforms
/// (`~/Library/Application Support` on macOS, the app's container on iOS, tvOS, watchOS and
/// visionOS), `$XDG_DATA_HOME/livedata-sample` (by default `~/.local/share/livedata-sample`)
/// elsewhere.
public enum SampleDataFolder {
    /// The environment variable that chooses the data folder.
    public static let environmentVariable = "LIVEDATA_SAMPLE_DATA"

    /// The data folder for a `--data` value (nil when absent) and an environment.
    ///
    /// - Parameters:
    ///   - flag: the `--data` flag's value, if given; relative paths are taken from the current folder.
    ///   - environment: the process environment.
    ///   - home: the user's home folder (the app's container on iOS and its siblings); nil for the
    ///     real one, `NSHomeDirectory()`, which every platform has (unlike
    ///     `FileManager.homeDirectoryForCurrentUser`, which is macOS and Linux only).
    public static func resolve(
        flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment, home: URL? = nil
    ) -> URL {
        if let flag, !flag.isEmpty { return URL(fileURLWithPath: flag).standardizedFileURL }
        if let chosen = environment[environmentVariable], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen).standardizedFileURL
        }
        #if canImport(Darwin)
        // Each platform's own per-user folder: nothing to write portably here.
        let support = home.map { $0.appendingPathComponent("Library/Application Support", isDirectory: true) }
            ?? FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? userHome.appendingPathComponent("Library/Application Support", isDirectory: true)
        return support.appendingPathComponent("LiveDataSample")
        #else
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data).appendingPathComponent("livedata-sample")
        }
        return (home ?? userHome).appendingPathComponent(".local/share/livedata-sample")
        #endif
    }

    /// Deletes what the sample keeps in `folder`, so the next run starts over: the server's
    /// database, every user's folder, an older version's files and what was set aside from them.
    /// Other files in the folder, and the folder itself, stay.
    ///
    /// - Throws: ``SampleError/signedIn(_:)`` while any user's app runs on the folder (deleting
    ///   the server's database under it would lose its writes), or ``SampleError/dataFolder(_:reason:)``
    ///   when a file cannot be deleted.
    public static func reset(_ folder: URL) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: folder.path) else { return }
        let lock: FileLock
        do {
            lock = try FileLock.lock(folder.appendingPathComponent("layout.lock"), exclusive: true)
        } catch {
            throw SampleError.dataFolder(folder.path, reason: error.localizedDescription)
        }
        defer { lock.unlock() }
        let signedIn = SampleSession.signedInUsers(in: folder)
        guard signedIn.isEmpty else { throw SampleError.signedIn(signedIn) }
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        let ours = names.filter { name in
            ["server.sqlite", "cache.sqlite"].contains { name == $0 || name == $0 + "-wal" || name == $0 + "-shm" }
                || name.hasPrefix("read-markers.json") || name == "users" || name == "legacy" || name.hasPrefix("legacy-")
        }
        do {
            for name in ours.sorted() { try files.removeItem(at: folder.appendingPathComponent(name)) }
        } catch {
            throw SampleError.dataFolder(folder.path, reason: error.localizedDescription)
        }
    }

    private static var userHome: URL { URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true) }
}
