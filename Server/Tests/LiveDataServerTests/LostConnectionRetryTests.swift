import Foundation
import LiveDataPostgres
import LiveDataServer
import ServerTestSupport
import Testing

/// `POST /v1/mutations` with an `Idempotency-Key` on PostgreSQL, when the transaction of the
/// mutation loses its connection (its backend terminated while it waits for the change log's
/// lock, as a fast shutdown ends it): the server runs it again, within
/// `ServerConfiguration.lostConnectionRetryLimit`, and the client gets its answer, not a 500.
@Suite("A lost PostgreSQL connection", .serialized)
struct LostConnectionRetryTests {
    static let post = Data(#"{"mutation":{"kind":"createPost","targetType":"user","targetId":"ada","text":"once"}}"#.utf8)

    @Test func aKeyedMutationWhoseConnectionIsLostIsRunAgainAndAnswered() async throws {
        try await withPostgresServer(retryLimit: .seconds(15)) { server, location in
            let (answer, posts, send) = try await Self.postLosingTheConnection(to: server, location: location)
            #expect(answer.status == 200, "\(answer.text)")
            let again = try await send()
            #expect(again.status == 200)
            #expect(again.body == answer.body)
            #expect(try await server.server.socialServer.ids(of: .post, includeDeleted: true).count == posts + 1)
        }
    }

    @Test func pastTheLimitTheLostConnectionIsAServerFailureAndTheKeyWorksAfter() async throws {
        try await withPostgresServer(retryLimit: .zero) { server, location in
            let (answer, posts, send) = try await Self.postLosingTheConnection(to: server, location: location)
            #expect(answer.status == 500)
            let error = answer.object?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "server_failure")
            #expect((error?["message"] as? String)?.contains(PostgresStoreError.connectionLostMessage) == true, "\(answer.text)")
            #expect(try await server.server.socialServer.ids(of: .post, includeDeleted: true).count == posts)
            let again = try await send()
            #expect(again.status == 200, "\(again.text)")
            #expect(try await server.server.socialServer.ids(of: .post, includeDeleted: true).count == posts + 1)
        }
    }

    /// Posts as ada with an idempotency key while the change log is locked, and terminates the
    /// backend of the post's transaction once it waits for the lock; returns the answer, the
    /// number of posts before, and a function that posts the same again.
    private static func postLosingTheConnection(
        to server: TestServer, location: PostgresLocation
    ) async throws -> (answer: HTTPAnswer, postsBefore: Int, sendAgain: @Sendable () async throws -> HTTPAnswer) {
        let token = try await server.signIn("ada")
        let url = server.baseURL.appendingPathComponent("v1/mutations")
        let send: @Sendable () async throws -> HTTPAnswer = {
            try await HTTP.send("POST", url, token: token, headers: ["Idempotency-Key": "lost"], body: post)
        }
        let posts = try await server.server.socialServer.ids(of: .post, includeDeleted: true).count
        let lock = try await ChangeLogLock.take(on: location)
        let sending = Task { try await send() }
        try await lock.terminateWaitingBackend()
        try await lock.release()
        return (try await sending.value, posts, send)
    }

    /// Runs `body` with an in-process server on a new database of the test cluster
    /// (`LIVEDATA_TEST_POSTGRES`), then drops the database.
    private func withPostgresServer(
        retryLimit: Duration, _ body: (TestServer, PostgresLocation) async throws -> Void
    ) async throws {
        let location = try await TestPostgres.makeDatabase()
        do {
            try await withServer(configure: { configuration in
                configuration.postgres = location
                configuration.lostConnectionRetryLimit = retryLimit
            }) { try await body($0, location) }
        } catch {
            await TestPostgres.dropDatabase(location)
            throw error
        }
        await TestPostgres.dropDatabase(location)
    }
}
