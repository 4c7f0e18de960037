import Foundation

/// A report that the cache file was damaged and has been replaced by an empty one.
///
/// The cache is a copy of server data, so it is never worth failing over: when the file is
/// corrupt, is not a database, is in a file format this SQLite cannot read, or was written by a
/// newer schema, ``LiveStore`` moves it aside (keeping it for diagnosis), builds a new one, and
/// reports what happened here. Live objects and collections then reload from the server.
public struct CacheRecovery: Sendable, CustomStringConvertible {
    /// The error that made the file unusable.
    public let error: any Error
    /// Where the damaged file was moved.
    public let movedTo: URL

    /// A readable summary.
    public var description: String { "the cache was rebuilt after: \(error); the old file is at \(movedTo.path)" }
}
