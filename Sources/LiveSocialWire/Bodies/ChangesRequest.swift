import Foundation
import LiveSocial

/// The query of `GET /v1/changes?since=<int64>&limit=<int>&scope=all|channels|messages&channelId=<id>`.
public struct ChangesRequest: Sendable, Hashable {
    /// The sequence number the changes come after.
    public var since: Int64
    /// The most changes to return.
    public var limit: Int
    /// Which changes.
    public var scope: ChangeScope

    /// Creates a changes request.
    public init(since: Int64, limit: Int, scope: ChangeScope) {
        self.since = since
        self.limit = limit
        self.scope = scope
    }

    /// The request's query items, in a fixed order (`channelId` only for a `messages` scope).
    public var queryItems: [URLQueryItem] {
        var items = [
            URLQueryItem(name: "since", value: String(since)), URLQueryItem(name: "limit", value: String(limit)),
            URLQueryItem(name: "scope", value: scope.wireName),
        ]
        if let channelId = scope.wireChannelId { items.append(URLQueryItem(name: "channelId", value: channelId)) }
        return items
    }

    /// Reads the request from its query parameters, by name: `since` and `limit` are required
    /// integers, `scope` is `all` when missing.
    public init(parameters: [String: String]) throws(WireDecodingError) {
        guard let sinceText = parameters["since"] else { throw WireDecodingError(message: "missing query parameter \"since\"") }
        guard let since = Int64(sinceText) else {
            throw WireDecodingError(message: "query parameter \"since\" must be an integer, found \"\(sinceText)\"")
        }
        guard let limitText = parameters["limit"] else { throw WireDecodingError(message: "missing query parameter \"limit\"") }
        guard let limit = Int(limitText) else {
            throw WireDecodingError(message: "query parameter \"limit\" must be an integer, found \"\(limitText)\"")
        }
        self.init(since: since, limit: limit, scope: try ChangeScope(wireName: parameters["scope"], channelId: parameters["channelId"]))
    }
}
