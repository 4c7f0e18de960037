import Foundation
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct MessagePositionWireTests {
    @Test func positionsRoundTripIncludingTheOpenEnds() throws {
        let positions = [
            MessagePosition(of: WireSamples.message), .before(1_700_000_000.123_456, inclusive: true),
            .before(5, inclusive: false), .after(5, inclusive: false), .after(0, inclusive: true),
            // A chat opened at the newest messages pages from the end of history, and back from its start.
            MessagePosition(createdAt: .infinity, id: ""), MessagePosition(createdAt: -.infinity, id: ""),
            .before(.infinity, inclusive: true),
        ]
        for position in positions {
            #expect(try roundTrip(position) == position)
        }
    }

    @Test func theEndsOfHistoryTravelAsNamedStrings() throws {
        let json = try String(decoding: SocialWire.encode(MessagesRequest(
            query: SocialQuery<Message>.messages(channelId: "g").kind, after: MessagePosition(createdAt: .infinity, id: ""),
            limit: 30)), as: UTF8.self)
        #expect(json.contains(#""createdAt":"Infinity""#), "\(json)")
    }

    @Test func aCreationTimeThatIsNeitherANumberNorAnEndIsRefused() throws {
        let body = #"{"createdAt":"yesterday","id":""}"#
        let error = #expect(throws: WireDecodingError.self) { try SocialWire.decode(MessagePosition.self, from: Data(body.utf8)) }
        #expect(error?.message.contains("createdAt") == true, "\(String(describing: error))")
        #expect(try SocialWire.decode(MessagePosition.self, from: Data(#"{"createdAt":"-Infinity","id":"m"}"#.utf8))
            == MessagePosition(createdAt: -.infinity, id: "m"))
    }

    @Test func theRequestBodyRoundTrips() throws {
        let request = MessagesRequest(
            query: SocialQuery<Message>.messages(channelId: "g").kind, after: .before(10, inclusive: true), limit: 30)
        #expect(try roundTripBody(request) == request)
        let body = MessagesBody(messages: [WireSamples.message, WireSamples.plainMessage])
        #expect(try roundTripBody(body) == body)
    }
}
