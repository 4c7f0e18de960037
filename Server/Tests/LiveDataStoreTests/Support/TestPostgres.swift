import Foundation
import LiveDataPostgres
import Logging
import PostgresNIO

/// The throwaway PostgreSQL cluster the tests use: its URL in `LIVEDATA_TEST_POSTGRES`
/// (`.ci/run` starts one with `Server/Scripts/postgres-cluster.sh start DIR`). Without it the
/// PostgreSQL tests fail; they never skip.
enum TestPostgres {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "LIVEDATA_TEST_POSTGRES is not set: start a cluster with `Server/Scripts/postgres-cluster.sh start /tmp/pg` and export its URL"
        }
    }

    /// The cluster's own database.
    static func location() throws -> PostgresLocation {
        guard let url = ProcessInfo.processInfo.environment["LIVEDATA_TEST_POSTGRES"], !url.isEmpty else { throw Missing() }
        return try PostgresLocation(url: url)
    }

    /// A new, empty database in the cluster, for one test.
    static func makeDatabase(in cluster: PostgresLocation? = nil) async throws -> PostgresLocation {
        var location = try cluster ?? location()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await admin(location) { try await $0.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger) }
        location.database = name
        return location
    }

    /// Drops a database `makeDatabase()` made, whoever is still connected to it.
    static func dropDatabase(_ location: PostgresLocation, in cluster: PostgresLocation? = nil) async {
        guard let admin = cluster ?? (try? Self.location()) else { return }
        try? await Self.admin(admin) {
            try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: logger)
        }
    }

    static let logger = Logger(label: "test-postgres")

    private static func admin(_ location: PostgresLocation, _ body: (PostgresConnection) async throws -> Void) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: location.host, port: location.port, username: location.username, password: location.password,
                database: location.database, tls: .disable),
            id: 0, logger: logger)
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
