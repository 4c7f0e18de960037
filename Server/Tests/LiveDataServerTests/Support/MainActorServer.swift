import Foundation
import LiveDataServer

/// ``withServer(folder:configure:_:)`` for main-actor tests (`SocialClient` lives on the main
/// actor): runs `body` with a fresh server and stops it afterwards, whether `body` throws or not.
@MainActor
func withServerOnMain(_ body: @MainActor (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
