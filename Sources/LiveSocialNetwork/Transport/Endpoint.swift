import Foundation
import LiveSocialWire

/// The server's address, and the requests to its routes.
struct Endpoint: Sendable {
    /// The server's base address, such as `http://127.0.0.1:8080` (a path in it prefixes every route).
    let server: URL

    /// A request to `path` (a route of ``LiveSocialWire/WireRoute``, already percent-encoded)
    /// with `query` items, accepting JSON.
    func request(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, timeout: Double) -> HTTPRequest {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + path
        components.percentEncodedQueryItems = query.isEmpty ? nil : query.map { item in
            URLQueryItem(name: Self.encode(item.name), value: item.value.map(Self.encode))
        }
        var headers = ["Accept": WireRoute.jsonMediaType]
        if body != nil { headers["Content-Type"] = WireRoute.jsonMediaType }
        return HTTPRequest(method: method, url: components.url ?? server, headers: headers, body: body, timeout: timeout)
    }

    /// Characters a query name or value keeps as they are: the unreserved ones (so `+`, `&`
    /// and `=` in an id are percent-encoded and cannot be read as a space or a separator).
    private static let queryAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}
