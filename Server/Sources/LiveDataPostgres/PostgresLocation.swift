import Foundation

/// Where a PostgreSQL database is, read from a `postgres://user:password@host:port/database` URL
/// (the form `livedata-server --postgres` takes).
///
/// The password may be left out of the URL and given in the `PGPASSWORD` environment variable
/// instead, so that it does not show in the process list. Bad input is refused with a message
/// that says which part is wrong.
public struct PostgresLocation: Sendable, Equatable {
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port (5432 when the URL names none).
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password, if any.
    public var password: String?
    /// The database's name.
    public var database: String

    /// A location from its parts.
    public init(host: String, port: Int = 5432, username: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Reads a `postgres://` or `postgresql://` URL.
    ///
    /// - Parameters:
    ///   - url: The URL, e.g. `postgres://livedata@127.0.0.1:5432/livedata`.
    ///   - environment: Where `PGPASSWORD` is read when the URL carries no password.
    /// - Throws: ``PostgresStoreError/invalidLocation(_:)`` naming what is wrong.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw PostgresStoreError.invalidLocation("expected postgres://user[:password]@host[:port]/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.invalidLocation("the URL names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError.invalidLocation("the URL names no user (postgres://user@host/database)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError.invalidLocation("the URL names no database (postgres://user@host/database)")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else {
            throw PostgresStoreError.invalidLocation("the port \(port) is out of range")
        }
        self.init(
            host: host,
            port: port,
            username: user,
            password: components.password ?? environment["PGPASSWORD"],
            database: database
        )
    }
}
