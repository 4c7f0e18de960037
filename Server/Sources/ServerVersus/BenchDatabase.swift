import Foundation
import LiveDataPostgres
import Logging
import PostgresNIO

/// A new, empty database for one run on the PostgreSQL cluster of a URL, dropped after it.
enum BenchDatabase {
    static let logger = Logger(label: "server-versus")

    /// Creates `bench_<random>` in the cluster `url` points at (its database is the one to
    /// connect to for that); its location.
    static func make(_ url: String) async throws -> PostgresLocation {
        var location = try PostgresLocation(url: url)
        let name = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await admin(location, "CREATE DATABASE \(name)")
        location.database = name
        return location
    }

    /// Drops a database ``make(_:)`` made, whoever is still connected to it.
    static func drop(_ location: PostgresLocation, cluster url: String) async {
        guard let cluster = try? PostgresLocation(url: url) else { return }
        try? await admin(cluster, "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)")
    }

    private static func admin(_ location: PostgresLocation, _ sql: String) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: location.host, port: location.port, username: location.username, password: location.password,
                database: location.database, tls: .disable),
            id: 0, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
