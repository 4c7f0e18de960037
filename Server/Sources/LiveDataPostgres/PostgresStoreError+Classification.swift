import PostgresNIO

extension PostgresStoreError {
    /// The store's error for an error of postgres-nio: ``connectionLost(_:)`` when the
    /// connection went away or could not be made, ``database(_:)`` for anything the database
    /// answered otherwise (and for an error postgres-nio did not type, its description); a
    /// ``PostgresStoreError`` stays as it is.
    ///
    /// - Parameter connectionClosed: whether the connection the error came from is closed now.
    ///   postgres-nio closes a connection after a protocol error (a message out of place, one it
    ///   cannot decode), such as a server's fatal error that arrives between a query's end and
    ///   the next; the transaction on it cannot commit any more, so the error is a lost connection.
    public init(_ error: any Error, connectionClosed: Bool = false) {
        if let error = error as? PostgresStoreError {
            self = error
            return
        }
        guard let error = error as? PSQLError else {
            let text = String(describing: error)
            self = connectionClosed ? .connectionLost(text) : .database(text)
            return
        }
        let state = error.serverInfo?[.sqlState]
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        let text = message + (state.map { " (\($0))" } ?? "")
        let lost = connectionClosed || Self.isConnectionLoss(error.code, sqlState: state)
        self = lost ? .connectionLost(text) : .database(text)
    }

    /// Whether postgres-nio's error code, with the SQLSTATE the server sent if any, says the
    /// connection was lost: the database restarting, shutting down or starting up, or the network
    /// failing. A transaction it broke did not commit, or its outcome is unknown; a new connection
    /// may work a moment later.
    ///
    /// - Lost: `.serverClosedConnection`, `.connectionError` (refused, reset, timed out),
    ///   `.uncleanShutdown`, and `.clientClosedConnection` (postgres-nio closes a connection
    ///   itself after an error on it; the store closes its own only when it is done);
    ///   `.unexpectedBackendMessage` and `.messageDecodingFailure`, after which postgres-nio
    ///   closes the connection (a dying server's last message can arrive out of place); a server
    ///   error of SQLSTATE class 08 (connection exception), 57P01 (admin shutdown: a fast or
    ///   immediate stop, or `pg_terminate_backend`), 57P02 (crash shutdown: another backend
    ///   crashed) or 57P03 (cannot connect now: starting up or shutting down).
    /// - Not lost: every other server error (constraint violations, syntax, 57014 statement
    ///   cancelled, 28… authentication, 3D000 unknown database), and postgres-nio's errors of a
    ///   statement or of the set-up (too many parameters, a command tag it cannot read, TLS and
    ///   authentication methods): trying again would meet them again.
    public static func isConnectionLoss(_ code: PSQLError.Code, sqlState: String?) -> Bool {
        switch code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection,
             .unexpectedBackendMessage, .messageDecodingFailure:
            return true
        case .server:
            guard let sqlState else { return false }
            return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
        default:
            return false
        }
    }
}
