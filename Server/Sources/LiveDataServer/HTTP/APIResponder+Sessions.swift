import Dispatch
import Foundation
import Hummingbird
import LiveSocialWire

extension APIResponder {
    /// `POST /v1/sessions`: a new session for a user id and password; 401 when they do not match.
    func signIn(_ request: Request) async throws -> Response {
        let data = try await body(of: request)
        let credentials = try decode(SignInRequest.self, from: data)
        guard credentials.userId.count <= configuration.maxIdLength,
              credentials.password.utf8.count <= 1_024
        else { throw APIFailure.invalidRequest("the user id or the password is too long") }
        // Passwords cannot be guessed fast: sign-in attempts have a bucket per user id, and one
        // over all of them that bounds the CPU spent on password hashes.
        if let wait = server.signInLimiter.admit(credentials.userId) ?? server.signInTotalLimiter.admit("") {
            throw APIFailure.rateLimited(retryAfter: wait)
        }
        // The password hash takes tens of milliseconds of CPU: off the threads that serve requests.
        let identity = server.identity
        let found: Session? = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try identity.signIn(userId: credentials.userId, password: credentials.password) })
            }
        }
        guard let session = found else {
            throw APIFailure.unauthorized("wrong user id or password")
        }
        return try Self.json(session)
    }

    /// `POST /v1/sessions/renew`: a new token for the same user; the presented one keeps working until it expires.
    func renew(_ token: SessionToken) throws -> Response {
        guard let session = try server.identity.renew(token) else {
            throw APIFailure.unauthorized("the session token is unknown, expired or revoked: sign in again")
        }
        return try Self.json(session)
    }

    /// `DELETE /v1/sessions`: revokes the presented token.
    func signOut(_ token: SessionToken) throws -> Response {
        try server.identity.revoke(token)
        return Response(status: .noContent)
    }

    /// The session body: `{"token":..,"userId":..,"expiresAt":..}`.
    static func json(_ session: Session) throws -> Response {
        json(try SocialWire.encode(SessionBody(token: session.token.value, userId: session.userId, expiresAt: session.expiresAt)))
    }
}
