import Foundation
import LiveDataPostgres
import LiveSocial
import LiveSocialServer
import PostgresNIO
import ServerTestSupport
import Testing

/// Which errors of postgres-nio count as a lost connection (by error code and SQLSTATE, not by
/// their text), and that the case reaches a caller through the server's rules.
@Suite("PostgreSQL store errors", .serialized)
struct PostgresStoreErrorTests {
    @Test func lostConnectionsAreTheConnectionCodesAndTheirSQLStates() {
        for code in [PSQLError.Code.serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection,
                     .unexpectedBackendMessage, .messageDecodingFailure] {
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
        for code in [PSQLError.Code.queryCancelled, .tooManyParameters, .invalidCommandTag, .sslUnsupported, .saslError] {
            #expect(!PostgresStoreError.isConnectionLoss(code, sqlState: nil), "\(code)")
        }
        // Any error on a connection that is closed now: its transaction cannot commit any more.
        guard case .connectionLost = PostgresStoreError(UntypedError(), connectionClosed: true) else {
            Issue.record("an error on a closed connection is not a lost connection")
            return
        }
        guard case .database = PostgresStoreError(UntypedError()) else {
            Issue.record("an error on an open connection that postgres-nio did not type is a lost connection")
            return
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
        let lock = try await ChangeLogLock.take(on: location)

        let connection = fixture.server.connection(userId: "ada")
        let mutation = SocialMutation.sendMessage(
            channelId: "general", clientRequestId: "terminated", type: .text, text: "once", parentId: nil, metaArrays: [:])
        let send: @Sendable () async throws -> [UInt8] = {
            try await PostgresServerStore.revealingStoreErrors {
                try await connection.perform(mutation, idempotencyKey: "key-1") { _ in Array("sent".utf8) }
            }
        }
        let first = Task { try await send() }
        try await lock.terminateWaitingBackend()
        try await lock.release()

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
}

/// An error that is not postgres-nio's.
private struct UntypedError: Error {}
