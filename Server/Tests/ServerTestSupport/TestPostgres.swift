import Foundation
import LiveDataPostgres
import Logging
import PostgresNIO

/// The throwaway PostgreSQL cluster the tests use: its URL in `LIVEDATA_TEST_POSTGRES`
/// (`.ci/run` starts one with `Server/Scripts/postgres-cluster.sh start DIR`). Without it the
/// PostgreSQL tests fail; they never skip.
public enum TestPostgres {
    /// The error of a test run without `LIVEDATA_TEST_POSTGRES`.
    public struct Missing: Error, CustomStringConvertible {
        /// What to do.
        public var description: String {
            "LIVEDATA_TEST_POSTGRES is not set: start a cluster with `Server/Scripts/postgres-cluster.sh start /tmp/pg` and export its URL"
        }
    }

    /// The cluster's own database.
    public static func location() throws -> PostgresLocation {
        guard let url = ProcessInfo.processInfo.environment["LIVEDATA_TEST_POSTGRES"], !url.isEmpty else { throw Missing() }
        return try PostgresLocation(url: url)
    }

    /// A new, empty database in the cluster, for one test.
    public static func makeDatabase(in cluster: PostgresLocation? = nil) async throws -> PostgresLocation {
        var location = try cluster ?? location()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await admin(location) { try await $0.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger) }
        location.database = name
        return location
    }

    /// Drops a database `makeDatabase()` made, whoever is still connected to it.
    public static func dropDatabase(_ location: PostgresLocation, in cluster: PostgresLocation? = nil) async {
        guard let admin = cluster ?? (try? Self.location()) else { return }
        try? await Self.admin(admin) {
            try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: logger)
        }
    }

    /// The logger of the tests' own connections.
    public static let logger = Logger(label: "test-postgres")

    /// A connection of the test's own to a database.
    public static func connect(_ location: PostgresLocation, id: Int = 0) async throws -> PostgresConnection {
        try await PostgresConnection.connect(
            configuration: .init(
                host: location.host, port: location.port, username: location.username, password: location.password,
                database: location.database, tls: .disable),
            id: id, logger: logger)
    }

    private static func admin(_ location: PostgresLocation, _ body: (PostgresConnection) async throws -> Void) async throws {
        let connection = try await connect(location)
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
