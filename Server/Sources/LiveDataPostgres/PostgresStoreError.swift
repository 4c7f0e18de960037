/// What went wrong in the PostgreSQL store, for a person to read.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    /// The `--postgres` URL cannot be used; the text says why.
    case invalidLocation(String)
    /// The database answered with an error; the text is its message.
    case database(String)
    /// The store was closed before the work ran.
    case closed
    /// The connection to the database was lost or could not be made (PostgreSQL restarting, the
    /// network cut): the transaction it broke did not commit, or its outcome is unknown. The next
    /// transaction connects again; a mutation with an idempotency key may be sent again. Which
    /// errors count is ``isConnectionLoss(_:sqlState:)``'s; behind the server's rules, which pass
    /// a store's error on as text, ``PostgresServerStore/revealingStoreErrors(_:)`` gives it back.
    case connectionLost(String)

    /// How ``connectionLost(_:)``'s message begins.
    public static let connectionLostMessage = "lost the connection to PostgreSQL"

    /// The message.
    public var description: String {
        switch self {
        case .invalidLocation(let why): "invalid PostgreSQL location: \(why)"
        case .database(let message): "PostgreSQL: \(message)"
        case .closed: "the PostgreSQL store is closed"
        case .connectionLost(let why): "\(Self.connectionLostMessage): \(why)"
        }
    }
}
