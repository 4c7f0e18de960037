import LiveSocial
import LiveSocialWire
import Testing

@Suite struct MessagePositionWireTests {
    @Test func positionsRoundTripIncludingTheOpenEnds() throws {
        let positions = [
            MessagePosition(of: WireSamples.message), .before(1_700_000_000.123_456, inclusive: true),
            .before(5, inclusive: false), .after(5, inclusive: false), .after(0, inclusive: true),
        ]
        for position in positions {
            #expect(try roundTrip(position) == position)
        }
    }

    @Test func theRequestBodyRoundTrips() throws {
        let request = MessagesRequest(
            query: SocialQuery<Message>.messages(channelId: "g").kind, after: .before(10, inclusive: true), limit: 30)
        #expect(try roundTripBody(request) == request)
        let body = MessagesBody(messages: [WireSamples.message, WireSamples.plainMessage])
        #expect(try roundTripBody(body) == body)
    }
}
