import Foundation
import LiveDataPostgres
import LiveSocial
import LiveSocialServer
import PostgresNIO
import Testing

/// Which errors of postgres-nio count as a lost connection (by error code and SQLSTATE, not by
/// their text), and that the case reaches a caller through the server's rules.
@Suite("PostgreSQL store errors", .serialized)
struct PostgresStoreErrorTests {
    @Test func lostConnectionsAreTheConnectionCodesAndTheirSQLStates() {
        for code in [PSQLError.Code.serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection] {
            #expect(PostgresStoreError.isConnectionLoss(code, sqlState: nil), "\(code)")
        }
        for state in ["08000", "08006", "08003", "57P01", "57P02", "57P03"] {
            #expect(PostgresStoreError.isConnectionLoss(.server, sqlState: state), "\(state)")
        }
        // Constraint, syntax, statement cancelled, serialization, authentication, unknown database.
        for state in ["23505", "42601", "57014", "57000", "40001", "28P01", "3D000"] {
            #expect(!PostgresStoreError.isConnectionLoss(.server, sqlState: state), "\(state)")
        }
        #expect(!PostgresStoreError.isConnectionLoss(.server, sqlState: nil))
        for code in [PSQLError.Code.queryCancelled, .messageDecodingFailure, .unexpectedBackendMessage, .tooManyParameters,
                     .invalidCommandTag, .sslUnsupported] {
            #expect(!PostgresStoreError.isConnectionLoss(code, sqlState: nil), "\(code)")
        }
    }

    @Test func aDatabaseThatIsNotThereIsNoLostConnectionButNoListenerIsOne() async throws {
        var missing = try TestPostgres.location()
        missing.database = "no_such_database_\(UUID().uuidString.prefix(8).lowercased())"
        do {
            _ = try await PostgresServerStore.open(missing)
            Issue.record("a store opened on a database that does not exist")
        } catch let error as PostgresStoreError {
            guard case .database(let message) = error else { throw error }
            #expect(message.contains("3D000"), "\(message)")
        }
        var closed = try TestPostgres.location()
        closed.port = 1   // nothing listens on loopback port 1: refused
        do {
            _ = try await PostgresServerStore.open(closed)
            Issue.record("a store opened on a closed port")
        } catch let error as PostgresStoreError {
            guard case .connectionLost = error else { throw error }
        }
    }

    /// The store's backend is terminated (SQLSTATE 57P01, as in a fast shutdown) while its
    /// keyed mutation waits for the change log's lock: the server's rules report a server failure
    /// with text only, and `revealingStoreErrors` gives the caller `.connectionLost`; sent again,
    /// the mutation reconnects and applies once.
    @Test func aTransactionWhoseBackendIsTerminatedIsReportedAsALostConnection() async throws {
        let fixture = try await StoreFixture.make(.postgres)
        defer { Task { await fixture.close() } }
        let location = try #require(fixture.location)
        try await fixture.server.seedDemoData()
        let side = try await PostgresConnection.connect(
            configuration: .init(host: location.host, port: location.port, username: location.username,
                                 password: location.password, database: location.database, tls: .disable),
            id: 1, logger: TestPostgres.logger)
        try await side.query("BEGIN", logger: TestPostgres.logger)
        try await side.query("SELECT value FROM server_counters FOR UPDATE", logger: TestPostgres.logger)

        let connection = fixture.server.connection(userId: "ada")
        let mutation = SocialMutation.sendMessage(
            channelId: "general", clientRequestId: "terminated", type: .text, text: "once", parentId: nil, metaArrays: [:])
        let send: @Sendable () async throws -> [UInt8] = {
            try await PostgresServerStore.revealingStoreErrors {
                try await connection.perform(mutation, idempotencyKey: "key-1") { _ in Array("sent".utf8) }
            }
        }
        let first = Task { try await send() }
        let waiting = try await Self.backendWaitingForALock(on: side)
        try await side.query("SELECT pg_terminate_backend(\(waiting))", logger: TestPostgres.logger)
        try await side.query("ROLLBACK", logger: TestPostgres.logger)
        try await side.close()

        switch await first.result {
        case .success: Issue.record("the mutation of a terminated backend succeeded")
        case .failure(let error):
            guard case PostgresStoreError.connectionLost(let why)? = error as? PostgresStoreError else {
                Issue.record("not a lost connection: \(String(reflecting: error))")
                break
            }
            #expect(why.contains("57P01"), "\(why)")
        }
        #expect(try await send() == Array("sent".utf8))
        #expect(try await send() == Array("sent".utf8))
        let sent = try await fixture.server.records(SocialQuery<Message>.messages(channelId: "general", newestFirst: false))
            .filter { $0.clientRequestId == "terminated" }
        #expect(sent.count == 1)
    }

    /// The process id of the test database's backend that waits for a lock, once there is one
    /// (polled for at most 30 s).
    private static func backendWaitingForALock(on side: PostgresConnection) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let rows = try await side.query(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                logger: TestPostgres.logger)
            for try await pid in rows.decode(Int32.self) { return pid }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PostgresStoreError.database("no backend waited for the change log's lock within 30 s")
    }
}
