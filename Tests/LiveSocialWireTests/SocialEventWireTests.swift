import Foundation
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialEventWireTests {
    @Test func everyEventRoundTrips() throws {
        #expect(Set(WireSamples.events.map(\.wireName)) == ["created", "updated", "deleted", "connected", "disconnected"])
        for event in WireSamples.events {
            #expect(try roundTrip(event) == event)
        }
    }

    @Test func aChangeIsFramedWithItsSequenceNameAndOneLineOfData() throws {
        let event = SocialEvent.created(.message(WireSamples.message), sequence: 42)
        let frame = try WireEventStream.frame(event)
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines[0] == "id: 42")
        #expect(lines[1] == "event: created")
        #expect(lines[2].hasPrefix("data: {"))
        #expect(lines[3].isEmpty && lines[4].isEmpty)
        let data = Data(lines[2].dropFirst("data: ".count).utf8)
        #expect(try SocialWire.decode(SocialEvent.self, from: data) == event)
    }

    @Test func aConnectionEventHasNoId() throws {
        #expect(try WireEventStream.frame(.connected) == "event: connected\ndata: {\"kind\":\"connected\"}\n\n")
        #expect(WireEventStream.heartbeat.hasPrefix(":"))
    }

    @Test func anUnknownKindIsRefused() throws {
        let message = try #require(decodingMessage(SocialEvent.self, #"{"kind":"moved","sequence":1}"#))
        #expect(message.hasPrefix(#"at "kind": unknown value "moved""#))
    }
}
