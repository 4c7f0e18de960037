import Foundation

/// A new, empty folder under the system's temporary folder, removed with everything in it when
/// the object is released. Keep a reference for as long as a process uses the folder.
final class TempFolder: Sendable {
    /// The folder.
    let url: URL

    /// Creates the folder.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("livedata-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of the folder.
    var path: String { url.path }

    /// The URL of an entry named `name` in the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Whether the folder has an entry named `name`.
    func contains(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: file(name).path)
    }

    /// The names of the folder's entries.
    var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
