import Foundation
import LiveSocial
import LiveSocialNetwork
import LiveSocialServer

/// A `SocialAPI` backend that the contract suite runs against: the embedded server's
/// connections in process, or `NetworkSocialAPI` against a `livedata-server` on loopback.
enum ContractBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case embedded
    case network

    var description: String { rawValue }

    /// A fresh server with the demo data, and a way to sign its users in.
    func open() async throws -> ContractFixture {
        switch self {
        case .embedded:
            let server = try EmbeddedServer()
            try await server.seedDemoData()
            return ContractFixture(signIn: { server.connection(userId: $0) }, stop: {})
        case .network:
            let server = try await TestServer.start()
            let apis = APIKeeper()
            return ContractFixture(
                signIn: { userId in
                    let api = try await NetworkSocialAPI.signIn(
                        server: server.baseURL, userId: userId, password: server.passwords[userId] ?? "")
                    apis.keep(api)
                    return api
                },
                stop: {
                    for api in apis.all { await api.signOut() }
                    await server.stop()
                })
        }
    }
}


/// An open backend: sign users in, stop it at the end.
struct ContractFixture: Sendable {
    let signIn: @Sendable (String) async throws -> any SocialAPI
    let stop: @Sendable () async -> Void
}
