import Foundation
import LiveSocial
import LiveSocialWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns answers and transport failures into what a caller of ``NetworkSocialAPI`` sees: a
/// decoded body or a ``LiveSocial/SocialAPIError`` a user can act on.
enum ResponseMapping {
    /// The error of a failed answer (not 2xx).
    ///
    /// The body's ``LiveSocialWire/WireErrorBody`` decides (``LiveSocialWire/WireErrorBody/apiError``);
    /// a body that is not one (a proxy's page) is judged by its status. A `not_found` without a
    /// key, answering a mutation, names `target`, the record the mutation is about. A 429 says
    /// when to try again from its `Retry-After` header.
    static func error(for response: HTTPResponse, target: SocialRecordKey? = nil) -> SocialAPIError {
        var body = (try? SocialWire.decode(WireErrorBody.self, from: response.body))
            ?? WireErrorBody(code: WireErrorCode(status: response.status), message: "the server answered HTTP \(response.status)")
        if body.code == .notFound, body.key == nil, let target { body.key = target }
        if body.code == .rateLimited, let seconds = response.headers["retry-after"].flatMap(Int.init) {
            return .serverFailure("too many requests: \(body.message); try again in \(seconds) s")
        }
        return body.apiError
    }

    /// What a failure to get an answer means: cancellation stays cancellation, everything else
    /// (no connection, a refused or reset connection, a timeout) is ``LiveSocial/SocialAPIError/offline``.
    static func error(forTransportFailure error: any Error) -> any Error {
        if error is CancellationError { return error }
        if let urlError = error as? URLError, urlError.code == .cancelled, Task.isCancelled { return CancellationError() }
        return SocialAPIError.offline
    }

    /// Whether a failure may have lost an answer to a request that reached the server, so sending
    /// it again (with the same idempotency key) is the way to learn the outcome: a connection
    /// lost (reset) or closed before a whole answer came (`badServerResponse`, which is how
    /// FoundationNetworking reports "Empty reply from server").
    static func mayHaveLostAnAnswer(_ error: any Error) -> Bool {
        guard let urlError = error as? URLError else { return false }
        return urlError.code == .networkConnectionLost || urlError.code == .badServerResponse
    }

    /// Decodes a successful answer's body; a body that does not have the contract's shape is a
    /// server failure (a server of another version, say).
    static func decode<Body: Decodable>(_ type: Body.Type, from response: HTTPResponse) throws(SocialAPIError) -> Body {
        do {
            return try SocialWire.decode(type, from: response.body)
        } catch {
            throw .serverFailure("the server's answer could not be read: \(error.message)")
        }
    }
}
