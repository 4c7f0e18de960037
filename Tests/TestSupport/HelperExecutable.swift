import Foundation

/// Finds an executable of this package built beside the test bundle
/// (`<scratch>/<triple>/debug/`), such as `LiveTestHelper` or `LiveDataSample`.
public enum HelperExecutable {
    /// The URL of the built executable `name`.
    /// - Throws: ``HelperExecutableError`` when it was not built.
    public static func url(named name: String) throws -> URL {
        var folders: [URL] = []
        #if os(macOS)
        folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        #endif
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HelperExecutableError(
            description: "no \(name) executable in \(folders.map(\.path)); build the package's tests first")
    }
}

/// A helper executable that was not found.
public struct HelperExecutableError: Error, CustomStringConvertible {
    /// What is missing and where it was looked for.
    public let description: String
}
