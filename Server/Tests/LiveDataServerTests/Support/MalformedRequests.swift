import Foundation

/// Requests that are wrong in a way the server must refuse (never a change it could accept):
/// random bytes, truncated JSON, unknown kinds, missing fields, wrong types, bad limits and
/// cursors, over-long texts, unknown routes and methods, garbage tokens.
struct MalformedRequests {
    struct Request {
        var method: String
        var path: String
        var body: Data?
        /// Whether to send the test's valid token (else a garbage one, or none).
        var authorized: Bool
        var authorization: String?
    }

    var random: SplitMix64
    let maxTextLength: Int

    /// Valid bodies, each with the fields it cannot do without.
    static var templates: [(path: String, body: [String: Any], required: [String])] { [
        ("v1/pages", ["query": ["kind": "channels", "includeDeleted": false], "cursor": NSNull(), "limit": 10], ["query", "limit"]),
        ("v1/pages", ["query": ["kind": "userFeed", "userId": "alan"], "limit": 5], ["query", "limit"]),
        ("v1/messages", ["query": ["kind": "messages", "channelId": "c1", "newestFirst": true],
                         "after": ["createdAt": 0, "id": ""], "limit": 20], ["query", "after", "limit"]),
        ("v1/mutations", ["mutation": ["kind": "sendMessage", "channelId": "c1", "clientRequestId": "r1", "type": "text",
                                       "text": "hello"]], ["mutation"]),
        ("v1/mutations", ["mutation": ["kind": "createPost", "targetType": "user", "targetId": "alan", "text": "hi"]], ["mutation"]),
        ("v1/mutations", ["mutation": ["kind": "follow", "userId": "ada"]], ["mutation"]),
        ("v1/mutations", ["mutation": ["kind": "updateUser", "displayName": "Alan"]], ["mutation"]),
        ("v1/sessions", ["userId": "alan", "password": "x"], ["userId", "password"]),
    ] }

    /// The required fields inside each template's nested kind object.
    static let nestedRequired: [String: [String]] = [
        "channels": ["kind"], "userFeed": ["kind", "userId"], "messages": ["kind", "channelId"],
        "sendMessage": ["kind", "channelId", "clientRequestId", "type", "text"],
        "createPost": ["kind", "targetType", "targetId", "text"], "follow": ["kind", "userId"], "updateUser": ["kind"],
    ]

    mutating func next() -> Request {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return randomBytes()
        case 1: return truncated()
        case 2, 3: return wrongField()
        case 4: return badLimit()
        case 5: return overlongText()
        case 6: return badChanges()
        case 7: return badRecordPath()
        case 8: return unknownRoute()
        default: return garbageToken()
        }
    }

    private mutating func template() -> (path: String, body: [String: Any], required: [String]) {
        Self.templates[Int.random(in: 0..<Self.templates.count, using: &random)]
    }

    private mutating func randomBytes() -> Request {
        let count = Int.random(in: 0..<300, using: &random)
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        return Request(method: "POST", path: template().path, body: Data(bytes), authorized: true)
    }

    private mutating func truncated() -> Request {
        let chosen = template()
        let data = try! JSONSerialization.data(withJSONObject: chosen.body)
        // Losing at least the closing brace leaves invalid JSON.
        let cut = Int.random(in: 0..<data.count, using: &random)
        return Request(method: "POST", path: chosen.path, body: data.prefix(cut), authorized: true)
    }

    private mutating func wrongValue(for value: Any) -> Any {
        let choices: [Any] = [42, -1.5, true, [1, 2], ["nested": "object"], NSNull(), "text"]
        // A value of the expected JSON type (a number for a number, say) could be right.
        func type(_ value: Any) -> String {
            switch value {
            case is String: "string"
            case is Bool: "boolean"
            case is Int, is Double: "number"
            case is [String: Any]: "object"
            case is [Any]: "array"
            default: "null"
            }
        }
        while true {
            let candidate = choices[Int.random(in: 0..<choices.count, using: &random)]
            if type(candidate) != type(value) { return candidate }
        }
    }

    /// A body with one required field removed, given a wrong type, or an unknown kind.
    private mutating func wrongField() -> Request {
        var chosen = template()
        var body = chosen.body
        let field = chosen.required[Int.random(in: 0..<chosen.required.count, using: &random)]
        if var nested = body[field] as? [String: Any], let kind = nested["kind"] as? String,
           let required = Self.nestedRequired[kind], Bool.random(using: &random) {
            let inner = required[Int.random(in: 0..<required.count, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: nested[inner] = nil
            case 1: nested[inner] = wrongValue(for: nested[inner]!)
            default: nested["kind"] = "x-unknown-\(random.next() % 1_000)"
            }
            body[field] = nested
        } else if Bool.random(using: &random) {
            body[field] = nil
        } else {
            body[field] = wrongValue(for: body[field]!)
        }
        chosen.body = body
        return Request(method: "POST", path: chosen.path, body: try! JSONSerialization.data(withJSONObject: body), authorized: true)
    }

    private mutating func badLimit() -> Request {
        let limits: [Any] = [0, -1, -1_000_000, 501, 1_000_000_000, Int64.max, 2.5, "10", NSNull()]
        let limit = limits[Int.random(in: 0..<limits.count, using: &random)]
        if Bool.random(using: &random) {
            let body: [String: Any] = ["query": ["kind": "channels"], "cursor": NSNull(), "limit": limit]
            return Request(method: "POST", path: "v1/pages", body: try! JSONSerialization.data(withJSONObject: body), authorized: true)
        }
        let body: [String: Any] = ["query": ["kind": "messages", "channelId": "c1"], "after": ["createdAt": 0, "id": ""], "limit": limit]
        return Request(method: "POST", path: "v1/messages", body: try! JSONSerialization.data(withJSONObject: body), authorized: true)
    }

    private mutating func overlongText() -> Request {
        let text = String(repeating: "é", count: maxTextLength + 1 + Int.random(in: 0..<100, using: &random))
        let mutations: [[String: Any]] = [
            ["kind": "sendMessage", "channelId": "c1", "clientRequestId": "r\(random.next())", "type": "text", "text": text],
            ["kind": "createPost", "targetType": "user", "targetId": "alan", "text": text],
            ["kind": "updateUser", "about": text],
            ["kind": "follow", "userId": String(text.prefix(300))],
        ]
        let body = ["mutation": mutations[Int.random(in: 0..<mutations.count, using: &random)]]
        return Request(method: "POST", path: "v1/mutations", body: try! JSONSerialization.data(withJSONObject: body), authorized: true)
    }

    private mutating func badChanges() -> Request {
        let queries = [
            "since=\(Int.random(in: -100 ..< 0, using: &random))&limit=10", "since=0&limit=\(Int.random(in: -5...0, using: &random))",
            "since=0&limit=\(Int.random(in: 501...1_000_000, using: &random))", "since=x&limit=10", "since=0&limit=1e3",
            "since=0&limit=10&scope=\(random.next() % 100)", "since=0&limit=10&scope=messages",
            "since=0&limit=10&scope=messages&channelId=", "since=99999999999999999999999&limit=10", "",
            "since=0&limit=10&scope=messages&channelId=" + String(repeating: "c", count: 201),
        ]
        return Request(method: "GET", path: "v1/changes?" + queries[Int.random(in: 0..<queries.count, using: &random)],
                       body: nil, authorized: true)
    }

    private mutating func badRecordPath() -> Request {
        let kinds = ["usr", "messages", "%00", "x\(random.next() % 100)", "user%2Fpost"]
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
        return Request(method: "GET", path: "v1/records/\(kind)/\(random.next())", body: nil, authorized: true)
    }

    private mutating func unknownRoute() -> Request {
        let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        let paths = ["v1/pages", "v1/mutations", "v1/nothing", "v2/pages", "v1/records", "v1/sessions/renew/x", "v1/sequence/1"]
        var method = methods[Int.random(in: 0..<methods.count, using: &random)]
        let path = paths[Int.random(in: 0..<paths.count, using: &random)]
        // A POST to the list routes would be a real request; make it a wrong method instead.
        if (path == "v1/pages" || path == "v1/mutations") && method == "POST" { method = "PUT" }
        return Request(method: method, path: path, body: nil, authorized: true)
    }

    private mutating func garbageToken() -> Request {
        let values = ["Bearer", "Bearer ", "bearer x", "Basic YWxhbjpwdw==", "Bearer \(random.next())",
                      "Bearer " + String(repeating: "A", count: 300)]
        let chosen = template()
        let body = try! JSONSerialization.data(withJSONObject: chosen.body)
        let path = chosen.path == "v1/sessions" ? "v1/sequence" : chosen.path
        return Request(method: path == "v1/sequence" ? "GET" : "POST", path: path, body: path == "v1/sequence" ? nil : body,
                       authorized: false, authorization: values[Int.random(in: 0..<values.count, using: &random)])
    }
}
