import Foundation

/// Where the sample keeps its data when the command line does not say.
///
/// The order is: the `--data` flag, then the `LIVEDATA_SAMPLE_DATA` environment variable, then
/// a per-user folder: `~/Library/Application Support/LiveDataSample` on Apple platforms,
/// `$XDG_DATA_HOME/livedata-sample` (by default `~/.local/share/livedata-sample`) elsewhere.
public enum SampleDataFolder {
    /// The environment variable that chooses the data folder.
    public static let environmentVariable = "LIVEDATA_SAMPLE_DATA"

    /// The data folder for a `--data` value (nil when absent) and an environment.
    ///
    /// - Parameters:
    ///   - flag: the `--data` flag's value, if given; relative paths are taken from the current folder.
    ///   - environment: the process environment.
    ///   - home: the user's home folder.
    public static func resolve(
        flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL = FileManager.default.homeDirectoryForCurrentUser
    ) -> URL {
        if let flag, !flag.isEmpty { return URL(fileURLWithPath: flag).standardizedFileURL }
        if let chosen = environment[environmentVariable], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen).standardizedFileURL
        }
        #if canImport(Darwin)
        return home.appendingPathComponent("Library/Application Support/LiveDataSample")
        #else
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data).appendingPathComponent("livedata-sample")
        }
        return home.appendingPathComponent(".local/share/livedata-sample")
        #endif
    }
}
