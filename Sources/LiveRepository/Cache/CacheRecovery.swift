import Foundation

/// A report that the cache file was damaged and has been replaced by an empty one.
///
/// The cache is a copy of server data, so it is never worth failing over: when the file is
/// corrupt, is not a database, is in a file format this SQLite cannot read, was written by a
/// newer schema, or has a schema its migrations fail on, ``LiveStore`` moves it aside (keeping it for diagnosis), builds a new one, and
/// reports what happened here. Live objects and collections then reload from the server.
///
/// What only the cache held is not carried over: changes not sent to the server yet (a chat
/// message still pending, say) stay in the moved-aside file and are not sent. The new cache
/// starts empty, and nothing is sent to the server on the damaged file's behalf.
public struct CacheRecovery: Sendable, CustomStringConvertible {
    /// The error that made the file unusable.
    public let error: any Error
    /// Where the damaged file was moved.
    public let movedTo: URL

    /// A readable summary.
    public var description: String {
        "the cache was rebuilt after: \(error); the old file, with any changes it held that were not sent to the server, is at \(movedTo.path)"
    }
}
