import Foundation
import LiveSocial
import LiveSocialNetwork

extension SampleEnvironment {
    /// Signs in to a `livedata-server` on the network and opens the user's cache for that server.
    ///
    /// The screens are the same as with the embedded server; what differs is underneath: requests
    /// and real-time events travel over HTTP (`NetworkSocialAPI`), the connection's state comes
    /// from the network (see ``SessionViewModel/connection``), and the other users are the people
    /// signed in elsewhere: nobody is simulated, so `/others`, `/reply` and `/flood` are refused.
    ///
    /// - Throws: ``SampleError/signInRefused(_:reason:)`` for a wrong user id or password,
    ///   ``SampleError/serverUnreachable(_:reason:)`` when the server cannot be reached or fails,
    ///   or a data folder's error.
    static func openAcrossMachines(_ configuration: SampleConfiguration, on remote: RemoteServer) async throws -> SampleEnvironment {
        let api: NetworkSocialAPI
        do {
            api = try await NetworkSocialAPI.signIn(server: remote.url, userId: configuration.userId, password: remote.password)
        } catch SocialAPIError.rejected(let reason) {
            throw SampleError.signInRefused(remote.url.absoluteString, reason: reason)
        } catch {
            throw SampleError.serverUnreachable(remote.url.absoluteString, reason: "\(error)")
        }
        let session = try SampleSession.begin(configuration)
        let client = try await SocialClient.open(api: api, userId: configuration.userId, cache: .file(configuration.cacheURL))
        let environment = SampleEnvironment(
            network: api, client: client, readMarkers: ReadMarkers(url: configuration.readMarkersURL))
        environment.session = session
        var notices = ["signed in to \(remote.url.absoluteString) as \(configuration.userId)"]
        if let recovery = client.store.recovery { notices.append("\(recovery)") }
        environment.launchNotice = notices.joined(separator: "; ")
        environment.start(backgroundActivity: false)
        return environment
    }
}
