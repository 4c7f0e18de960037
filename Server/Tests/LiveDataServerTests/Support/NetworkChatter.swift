import Foundation
import LiveRepository
import LiveSocial
import LiveSocialNetwork

/// A user of the sample as the fault tests play one: `NetworkSocialAPI` to a server address,
/// a `SocialClient` over a cache file of its own, real time started.
@MainActor
final class NetworkChatter {
    let api: NetworkSocialAPI
    let client: SocialClient
    let userId: String

    /// Reconnects quickly (backoff up to 0.05 s, 0.4 s at most) and gives up on a request after
    /// `requestTimeout` seconds, so that faults play out in seconds.
    static func configuration(requestTimeout: Double = 3) -> NetworkConfiguration {
        NetworkConfiguration(
            requestTimeout: requestTimeout, backoff: ReconnectionBackoff(initialDelay: 0.05, maximumDelay: 0.4, multiplier: 2))
    }

    /// Signs `userId` in at `server` (retrying while the server cannot be reached, for at most
    /// 30 s) and starts a client over a cache file in `folder`.
    init(_ userId: String, password: String, server: URL, folder: URL, configuration: NetworkConfiguration = configuration()) async throws {
        self.userId = userId
        api = try await Self.signIn(userId, password: password, server: server, configuration: configuration)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        client = try SocialClient(api: self.api, userId: userId, cache: .file(folder.appendingPathComponent("\(userId).sqlite")))
        client.startRealtime()
    }

    /// Signs `userId` in at `server`, retrying while the server cannot be reached (for at most
    /// 30 s), and returns an API that goes on with `configuration`.
    ///
    /// The sign-in itself gets 60 s: the real server hashes the password with scrypt, about 1.1 s
    /// in the tests' debug build on an idle machine, and several times that while the whole
    /// server suite shares the two cores. Within the fault suites' 3 s every attempt could time
    /// out (and each left the server hashing), which ended two CI runs with `offline`.
    static func signIn(
        _ userId: String, password: String, server: URL, configuration: NetworkConfiguration
    ) async throws -> NetworkSocialAPI {
        let deadline = ContinuousClock.now + .seconds(30)
        var patient = configuration
        patient.requestTimeout = 60
        while true {
            do {
                let signedIn = try await NetworkSocialAPI.signIn(server: server, userId: userId, password: password, configuration: patient)
                guard let session = await signedIn.session else { throw SocialAPIError.rejected("signed in without a session") }
                // The patient API closes its event stream once released; the session goes on.
                return NetworkSocialAPI(server: server, session: session, configuration: configuration)
            } catch SocialAPIError.offline where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Sends `text` to `channelId` as the sample's chat does, without waiting for the answer; the
    /// message shows as pending at once.
    func send(_ text: String, to channelId: String) {
        let messages = client.messages
        Task { _ = try? await messages.send(text, to: channelId) }
    }

    /// The texts of this user's messages in the cache that the server has not stored (pending
    /// or failed), oldest first.
    func unsentTexts() async throws -> [String] {
        try await client.store.read { [userId] connection in
            try connection.query(
                "SELECT text FROM messages WHERE userId = ? AND id = clientRequestId ORDER BY createdAt", [.text(userId)]
            ) { $0.string(0) }
        }
    }

    /// The texts of the server's copies in the cache, in `channelId`, with how many copies each.
    func storedTexts(in channelId: String) async throws -> [String: Int] {
        let texts = try await client.store.read { connection in
            try connection.query(
                "SELECT text FROM messages WHERE channelId = ? AND id <> clientRequestId", [.text(channelId)]
            ) { $0.string(0) }
        }
        return texts.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// Stops real time and signs out.
    func close() async {
        client.stopRealtime()
        await api.signOut()
    }
}
