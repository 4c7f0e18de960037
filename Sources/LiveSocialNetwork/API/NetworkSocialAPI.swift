import Foundation
import LiveData
import LiveSocial
import LiveSocialWire

/// The social API of a server on the network: requests over HTTP, real-time events over a
/// Server-Sent Events stream, for one signed-in user.
///
/// Sign in, then hand the API to a `SocialClient` as you would the embedded server:
///
/// ```swift
/// let api = try await NetworkSocialAPI.signIn(
///     server: URL(string: "http://127.0.0.1:8080")!, userId: "alan", password: password)
/// api.connectionState.observe(owner: self) { state in status.text = state?.summary() ?? "" }
/// let client = try await SocialClient.open(api: api, userId: api.userId, cache: .file(cacheURL))
/// client.startRealtime()
/// ```
///
/// From sign-in on it keeps the event stream open: it reconnects after a drop with exponential
/// backoff and full jitter (``ReconnectionBackoff``), counts a stream silent for
/// ``NetworkConfiguration/missedHeartbeats`` heartbeat intervals as dropped, and renews the
/// session ``NetworkConfiguration/renewalLeadTime`` before it expires. Each event stream from
/// ``events()`` starts with ``LiveSocial/SocialEvent/connected`` or
/// ``LiveSocial/SocialEvent/disconnected`` and reports every change of the connection, so
/// `SocialClient` catches up from the change log after each reconnection.
///
/// Errors are ``LiveSocial/SocialAPIError``s: `.offline` when the server could not be reached
/// or did not answer within ``NetworkConfiguration/requestTimeout``; `.serverFailure` for a 5xx
/// or a 429 (with when to try again); `.notFound` for a mutation's missing target;
/// `.rejected` when the server refused (403, 409, 422), and `.rejected("signed out: <why>")`
/// once the session ended (a 401 that a renewal could not fix: ``connectionState`` is then
/// ``ConnectionState/signedOut(reason:)``); `.invalidRequest` for a 400 or 413.
public final class NetworkSocialAPI: Sendable {
    /// The server's address.
    public let server: URL
    /// The signed-in user.
    public let userId: String
    /// The settings in use.
    public let configuration: NetworkConfiguration

    let requester: Requester
    let keeper: SessionKeeper
    let connection: RealtimeConnection
    let broadcaster: EventBroadcaster
    let states: ConnectionStates

    /// Signs in with a user id and password and opens the event stream.
    ///
    /// - Throws: `SocialAPIError.rejected("wrong user id or password")` when the server refuses
    ///   the credentials, `.offline` when it cannot be reached, `.serverFailure` when it fails.
    @MainActor public static func signIn(
        server: URL, userId: String, password: String, configuration: NetworkConfiguration = NetworkConfiguration()
    ) async throws -> NetworkSocialAPI {
        try await signIn(server: server, userId: userId, password: password, configuration: configuration, transport: URLSessionTransport(requestTimeout: configuration.requestTimeout))
    }

    /// Resumes a session signed in earlier (its token kept by the app) and opens the event stream.
    @MainActor public convenience init(server: URL, session: SessionBody, configuration: NetworkConfiguration = NetworkConfiguration()) {
        self.init(server: server, session: session, configuration: configuration, transport: URLSessionTransport(requestTimeout: configuration.requestTimeout))
    }

    @MainActor static func signIn(
        server: URL, userId: String, password: String, configuration: NetworkConfiguration, transport: any HTTPTransport
    ) async throws -> NetworkSocialAPI {
        let endpoint = Endpoint(server: server)
        let body = try SocialWire.encode(SignInRequest(userId: userId, password: password))
        let request = endpoint.request("POST", WireRoute.sessions, body: body, timeout: configuration.requestTimeout)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw ResponseMapping.error(forTransportFailure: error)
        }
        if response.status == 401 { throw SocialAPIError.rejected("wrong user id or password") }
        guard response.isSuccess else { throw ResponseMapping.error(for: response) }
        let session = try ResponseMapping.decode(SessionBody.self, from: response)
        return NetworkSocialAPI(server: server, session: session, configuration: configuration, transport: transport)
    }

    @MainActor init(server: URL, session: SessionBody, configuration: NetworkConfiguration, transport: any HTTPTransport) {
        self.server = server
        userId = session.userId
        self.configuration = configuration
        let endpoint = Endpoint(server: server)
        let states = ConnectionStates(.connecting)
        let broadcaster = EventBroadcaster()
        let keeper = SessionKeeper(session: session, endpoint: endpoint, transport: transport, configuration: configuration) { reason in
            states.set(.signedOut(reason: reason))
            broadcaster.finish()
        }
        self.states = states
        self.broadcaster = broadcaster
        self.keeper = keeper
        requester = Requester(endpoint: endpoint, transport: transport, configuration: configuration, keeper: keeper)
        connection = RealtimeConnection(
            endpoint: endpoint, transport: transport, configuration: configuration, keeper: keeper, broadcaster: broadcaster,
            states: states)
        let connection = connection
        Task {
            await keeper.start()
            await connection.start()
        }
    }

    /// Closes the event stream: an API that is no longer used does not keep reconnecting.
    deinit {
        let connection = connection
        let keeper = keeper
        Task {
            await connection.stop()
            await keeper.stopRenewing()
        }
    }

    /// The connection's state, for a view model to bind to (set on the main thread).
    @MainActor public var connectionState: LiveData<ConnectionState> { states.liveData }

    /// The connection's state now, from any thread.
    public var currentConnectionState: ConnectionState { states.current }

    /// The connection's state now, then each change: for code that awaits them.
    public func connectionStateUpdates() -> AsyncStream<ConnectionState> { states.updates() }

    /// The session in use (its token renewed as it goes), nil once signed out: keep it to
    /// resume with ``init(server:session:configuration:)``.
    public var session: SessionBody? {
        get async { await keeper.session }
    }

    /// Signs out: revokes the token on the server (best effort), closes the event stream and
    /// ends the event streams; requests fail with `.rejected("signed out: ..")` from then on.
    public func signOut() async {
        await keeper.signOut(reason: "at the user's request")
        await connection.stop()
    }
}
