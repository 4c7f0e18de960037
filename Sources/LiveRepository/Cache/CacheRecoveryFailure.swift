import Foundation

/// The error ``LiveStore/init(location:migrations:externalChanges:)`` throws when the cache file
/// is damaged and cannot be replaced: it names the file, the damage, and why the file could not
/// be moved aside (a read-only folder, say).
///
/// The damaged file is left where it was, unchanged. Opening the store again once the folder is
/// writable moves it aside and builds a new cache, as ``CacheRecovery`` describes.
public struct CacheRecoveryFailure: Error, Sendable, CustomStringConvertible {
    /// The damaged cache file.
    public let file: URL
    /// The error that showed the damage, such as a corrupt-file ``SQLiteError``.
    public let damage: any Error
    /// Why the file could not be moved aside or a new one made.
    public let cause: any Error

    /// A readable summary: the file, the damage, and why it was not replaced.
    public var description: String {
        "the cache file at \(file.path) is damaged (\(damage)) and could not be replaced: \(cause)"
    }
}
