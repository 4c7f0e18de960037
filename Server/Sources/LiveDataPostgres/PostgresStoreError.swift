/// What went wrong in the PostgreSQL store, for a person to read.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    /// The `--postgres` URL cannot be used; the text says why.
    case invalidLocation(String)
    /// The database answered with an error; the text is its message.
    case database(String)
    /// The store was closed before the work ran.
    case closed

    /// The message.
    public var description: String {
        switch self {
        case .invalidLocation(let why): "invalid PostgreSQL location: \(why)"
        case .database(let message): "PostgreSQL: \(message)"
        case .closed: "the PostgreSQL store is closed"
        }
    }
}
