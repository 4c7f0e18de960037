import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer as the tests read it.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object, if it is one.
    var object: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }

    /// The contract's error code (`{"error":{"code":..}}`), if the body is an error body.
    var errorCode: String? { (object?["error"] as? [String: Any])?["code"] as? String }

    /// The error body's message, if any.
    var errorMessage: String? { (object?["error"] as? [String: Any])?["message"] as? String }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Requests through URLSession, as a client on another machine would make them.
enum HTTP {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 8
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ method: String, _ url: URL, token: String? = nil, authorization: String? = nil,
        headers: [String: String] = [:], body: Data? = nil
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
    }

    static func send(
        _ method: String, _ url: URL, token: String? = nil, headers: [String: String] = [:], json: Any
    ) async throws -> HTTPAnswer {
        try await send(method, url, token: token, headers: headers,
                       body: try JSONSerialization.data(withJSONObject: json))
    }
}
