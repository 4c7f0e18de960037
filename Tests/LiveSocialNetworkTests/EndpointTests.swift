import Foundation
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

@Suite struct EndpointTests {
    @Test func routesAreAppendedToTheServersPath() {
        let plain = Endpoint(server: URL(string: "http://127.0.0.1:8080")!)
        #expect(plain.request("GET", WireRoute.sequence, timeout: 1).url.absoluteString == "http://127.0.0.1:8080/v1/sequence")
        let prefixed = Endpoint(server: URL(string: "https://example.com/chat/")!)
        #expect(
            prefixed.request("GET", WireRoute.record(.follow, id: "a->b"), timeout: 1).url.absoluteString
                == "https://example.com/chat/v1/records/follow/a-%3Eb")
    }

    @Test func queryValuesAreEncodedSoThatPlusAndAmpersandSurvive() {
        let endpoint = Endpoint(server: URL(string: "http://h")!)
        let items = ChangesRequest(since: 5, limit: 10, scope: .messages(channelId: "a+b&c=d é")).queryItems
        let url = endpoint.request("GET", WireRoute.changes, query: items, timeout: 1).url
        #expect(url.query == "since=5&limit=10&scope=messages&channelId=a%2Bb%26c%3Dd%20%C3%A9")
        let parsed = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(parsed.first { $0.name == "channelId" }?.value == "a+b&c=d é")
    }

    @Test func aBodyIsSentAsJSON() {
        let request = Endpoint(server: URL(string: "http://h")!).request("POST", WireRoute.pages, body: Data("{}".utf8), timeout: 4)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.timeout == 4)
    }
}
