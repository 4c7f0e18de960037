import Foundation
import LiveSocial
import LiveSocialWire

/// Holds the session token: hands it to requests, renews it before it expires and when the
/// server refuses it, and ends the session when a renewal is refused.
///
/// One renewal runs at a time: callers that find their token refused while one runs wait for
/// it and get its token. The renewal timer retries an unreachable server with the backoff's
/// ceilings until the token expires.
actor SessionKeeper {
    private enum State {
        case active(SessionBody)
        case signedOut(reason: String)
    }

    private var state: State
    private var renewal: Task<String, any Error>?
    private var timer: Task<Void, Never>?
    private let endpoint: Endpoint
    private let transport: any HTTPTransport
    private let configuration: NetworkConfiguration
    private let onSignedOut: @Sendable (String) -> Void

    init(
        session: SessionBody, endpoint: Endpoint, transport: any HTTPTransport, configuration: NetworkConfiguration,
        onSignedOut: @escaping @Sendable (String) -> Void
    ) {
        state = .active(session)
        self.endpoint = endpoint
        self.transport = transport
        self.configuration = configuration
        self.onSignedOut = onSignedOut
    }

    /// The current token; throws `.rejected("signed out: ..")` once the session ended.
    func token() throws(SocialAPIError) -> String {
        switch state {
        case .active(let session): return session.token
        case .signedOut(let reason): throw Self.signedOutError(reason)
        }
    }

    /// The current session, nil once it ended.
    var session: SessionBody? {
        if case .active(let session) = state { session } else { nil }
    }

    /// Starts the renewal timer for the current session.
    func start() {
        scheduleRenewal()
    }

    /// A token that replaces `refused`: the current one if a renewal already replaced it, else
    /// a renewed one. Throws `.rejected("signed out: ..")` when the server refuses to renew, and
    /// `.offline` or `.serverFailure` when it could not be asked (the session stays).
    func renew(replacing refused: String) async throws -> String {
        guard case .active(let session) = state else { throw Self.signedOutError(reasonIfSignedOut) }
        if session.token != refused { return session.token }
        if let renewal { return try await renewal.value }
        let task = Task { try await self.runRenewal(of: session) }
        renewal = task
        defer { renewal = nil }
        return try await task.value
    }

    /// Stops the renewal timer (the API is gone); the session itself stays valid on the server.
    func stopRenewing() {
        timer?.cancel()
        timer = nil
    }

    /// Returns when the renewal under way, if any, has finished (its outcome applied).
    func waitForRenewal() async {
        if let renewal { _ = try? await renewal.value }
    }

    /// Ends the session: revokes the token on the server (best effort) and reports `reason`.
    func signOut(reason: String) async {
        guard case .active(let session) = state else { return }
        end(reason: reason)
        var request = endpoint.request("DELETE", WireRoute.sessions, timeout: configuration.requestTimeout)
        request.headers[WireRoute.authorizationHeader] = "Bearer \(session.token)"
        _ = try? await transport.send(request)
    }

    private var reasonIfSignedOut: String {
        if case .signedOut(let reason) = state { reason } else { "" }
    }

    private func runRenewal(of session: SessionBody) async throws -> String {
        var request = endpoint.request("POST", WireRoute.renewSession, timeout: configuration.requestTimeout)
        request.headers[WireRoute.authorizationHeader] = "Bearer \(session.token)"
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw ResponseMapping.error(forTransportFailure: error)
        }
        if response.status == 401 {
            let reason = (try? SocialWire.decode(WireErrorBody.self, from: response.body))?.message ?? "the session expired"
            end(reason: "the server refused to renew the session (\(reason))")
            throw Self.signedOutError(reasonIfSignedOut)
        }
        guard response.isSuccess else { throw ResponseMapping.error(for: response) }
        let renewed = try ResponseMapping.decode(SessionBody.self, from: response)
        guard case .active = state else { throw Self.signedOutError(reasonIfSignedOut) }
        state = .active(renewed)
        scheduleRenewal()
        return renewed.token
    }

    private func end(reason: String) {
        guard case .active = state else { return }
        state = .signedOut(reason: reason)
        timer?.cancel()
        timer = nil
        onSignedOut(reason)
    }

    /// Sleeps until the renewal time of the current session, then renews; an unreachable
    /// server is asked again after each backoff ceiling while the token is still valid.
    private func scheduleRenewal() {
        timer?.cancel()
        guard case .active(let session) = state else { return }
        let clock = configuration.clock
        let expiresAt = Date(timeIntervalSince1970: session.expiresAt)
        let lifetime = expiresAt.timeIntervalSince(clock.now)
        let lead = min(configuration.renewalLeadTime, max(0, lifetime / 2))
        let backoff = configuration.backoff
        timer = Task { [weak self] in
            var deadline = expiresAt.addingTimeInterval(-lead)
            var attempt = 0
            while true {
                do { try await clock.sleep(until: deadline) } catch { return }
                guard let self else { return }
                do {
                    _ = try await self.renew(replacing: session.token)
                    return
                } catch let error as SocialAPIError where error.isTransient {
                    attempt += 1
                    deadline = clock.now.addingTimeInterval(backoff.ceiling(forAttempt: attempt))
                    if deadline >= expiresAt { return }
                } catch {
                    return
                }
            }
        }
    }

    private static func signedOutError(_ reason: String) -> SocialAPIError {
        .rejected("signed out: \(reason)")
    }
}
