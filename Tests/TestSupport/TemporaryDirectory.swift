import Foundation

/// A new, empty directory under the system's temporary directory, removed with everything in it
/// when the object is released.
///
/// `@unchecked Sendable`: its only state is the immutable `url`.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-livedata-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of a file named `name` in the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names of the directory's entries.
    public var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
