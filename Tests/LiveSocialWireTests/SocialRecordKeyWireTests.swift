import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialRecordKeyWireTests {
    @Test func everyKindsKeyRoundTrips() throws {
        for key in WireSamples.keys {
            #expect(try roundTrip(key) == key)
        }
    }

    @Test func anUnknownKindIsRefused() {
        #expect(decodingMessage(SocialRecordKey.self, #"{"kind":"photo","id":"x"}"#)?.hasPrefix(#"at "kind": unknown value "photo""#) == true)
    }
}
