import Foundation
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct ChangeScopeWireTests {
    static let scopes: [ChangeScope] = [.all, .channels, .messages(channelId: "general")]

    @Test func everyScopeRoundTrips() throws {
        for scope in Self.scopes {
            #expect(try roundTrip(scope) == scope)
        }
    }

    @Test func everyScopeRoundTripsThroughQueryItems() throws {
        for scope in Self.scopes {
            let request = ChangesRequest(since: 12, limit: 50, scope: scope)
            let parameters = Dictionary(uniqueKeysWithValues: request.queryItems.map { ($0.name, $0.value ?? "") })
            #expect(try ChangesRequest(parameters: parameters) == request)
        }
    }

    @Test func aMissingScopeIsAll() throws {
        #expect(try ChangesRequest(parameters: ["since": "0", "limit": "1"]).scope == .all)
    }

    @Test func badParametersSayWhatIsWrong() {
        #expect(throws: WireDecodingError(message: #"missing query parameter "since""#)) {
            try ChangesRequest(parameters: ["limit": "1"])
        }
        #expect(throws: WireDecodingError(message: #"query parameter "limit" must be an integer, found "many""#)) {
            try ChangesRequest(parameters: ["since": "0", "limit": "many"])
        }
        #expect(throws: WireDecodingError(message: #"scope "messages" needs a channelId"#)) {
            try ChangesRequest(parameters: ["since": "0", "limit": "1", "scope": "messages"])
        }
        #expect(throws: WireDecodingError(message: #"unknown scope "posts" (expected one of: all, channels, messages)"#)) {
            try ChangesRequest(parameters: ["since": "0", "limit": "1", "scope": "posts"])
        }
    }
}
