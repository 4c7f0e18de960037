import Hummingbird
import LiveSocial
import LiveSocialWire

/// A request the server answers with an error: an HTTP status and the contract's error body
/// (see WIRE-CONTRACT.md), with a message that tells a person what is wrong.
struct APIFailure: Error, Sendable {
    var status: HTTPResponse.Status
    var body: WireErrorBody
    /// Extra headers, such as `Retry-After` on a 429.
    var headers: HTTPFields = [:]
}

extension APIFailure {
    init(_ code: WireErrorCode, _ message: String, status: HTTPResponse.Status? = nil, headers: HTTPFields = [:]) {
        self.init(status: status ?? HTTPResponse.Status(code: code.status), body: WireErrorBody(code: code, message: message),
                  headers: headers)
    }

    static func invalidRequest(_ message: String) -> APIFailure {
        APIFailure(.invalidRequest, message)
    }

    static func unauthorized(_ message: String) -> APIFailure {
        APIFailure(.unauthorized, message, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func notFound(_ message: String) -> APIFailure {
        APIFailure(.notFound, message)
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method]) -> APIFailure {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIFailure(
            .invalidRequest, "\(path) does not answer \(method.rawValue); it answers \(list)", status: .methodNotAllowed,
            headers: [.allow: list])
    }

    static func tooLarge(limit: Int) -> APIFailure {
        APIFailure(.tooLarge, "the body is larger than \(limit) bytes")
    }

    static func rateLimited(retryAfter seconds: Int) -> APIFailure {
        APIFailure(.rateLimited, "too many requests; retry in \(seconds) s", headers: [.retryAfter: String(seconds)])
    }

    static func serverFailure(_ message: String) -> APIFailure {
        APIFailure(.serverFailure, message)
    }

    /// The answer for an error of the domain's rules, as the contract maps them (a record that
    /// does not exist carries its key).
    init(_ error: SocialAPIError) {
        let body = WireErrorBody(error)
        if case .offline = error {
            self.init(status: .serviceUnavailable, body: body)
        } else {
            self.init(status: HTTPResponse.Status(code: body.status), body: body)
        }
    }
}
