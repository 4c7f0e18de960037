import Foundation
import LiveSocial

/// The paths, headers and media types of the HTTP API (see `WIRE-CONTRACT.md`).
///
/// Every route but ``health`` and signing in (`POST` ``sessions``) needs
/// `Authorization: Bearer <token>`.
public enum WireRoute {
    /// `GET`: 200 ``HealthBody``, no token needed.
    public static let health = "/health"
    /// `POST` a ``SignInRequest``: 200 ``SessionBody``, 401 on wrong credentials. `DELETE`: 204,
    /// revokes the token presented.
    public static let sessions = "/v1/sessions"
    /// `POST` (no body): 200 ``SessionBody`` with a new token; 401 when the token presented is
    /// expired or revoked.
    public static let renewSession = "/v1/sessions/renew"
    /// The prefix of `GET /v1/records/{kind}/{id}`: 200 ``RecordBody``.
    public static let records = "/v1/records"
    /// `POST` a ``PageRequest``: 200 ``PageBody``.
    public static let pages = "/v1/pages"
    /// `POST` a ``MessagesRequest``: 200 ``MessagesBody``.
    public static let messages = "/v1/messages"
    /// `GET` with a ``ChangesRequest``'s query items: 200, a `ChangeLog`'s wire form.
    public static let changes = "/v1/changes"
    /// `GET`: 200 ``SequenceBody``.
    public static let sequence = "/v1/sequence"
    /// `POST` a ``MutationRequest`` with an ``idempotencyKeyHeader``: 200, a
    /// `SocialMutationResult`'s wire form.
    public static let mutations = "/v1/mutations"
    /// `GET`: the Server-Sent Events stream of the user's real-time events (see ``WireEventStream``).
    public static let events = "/v1/events"

    /// The path of one record: `/v1/records/{kind}/{id}`, the id percent-encoded as a path segment.
    public static func record(_ kind: SocialRecordKind, id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let segment = id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
        return "\(records)/\(kind.rawValue)/\(segment)"
    }

    /// The header that carries a bearer token.
    public static let authorizationHeader = "Authorization"
    /// The header that names a mutation: a repeat with the same key by the same user returns the
    /// first answer and stores nothing new.
    public static let idempotencyKeyHeader = "Idempotency-Key"
    /// The header of a 429 answer: whole seconds to wait.
    public static let retryAfterHeader = "Retry-After"
    /// The media type of every body.
    public static let jsonMediaType = "application/json"
    /// The media type of the event stream.
    public static let eventStreamMediaType = "text/event-stream"
}
