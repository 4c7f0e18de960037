import Foundation
import LiveSocialWire
import Testing

@Suite struct SessionBodyTests {
    @Test func theSessionBodiesRoundTrip() throws {
        let session = SessionBody(token: "t0k3n", userId: "alan", expiresAt: 1_700_000_900.5)
        #expect(try roundTripBody(session) == session)
        let signIn = SignInRequest(userId: "alan", password: "p \"w\" d")
        #expect(try roundTripBody(signIn) == signIn)
        #expect(try roundTripBody(HealthBody()) == HealthBody(status: "ok"))
        #expect(try roundTripBody(SequenceBody(latestSequence: .max)) == SequenceBody(latestSequence: .max))
    }

    @Test func theRecordBodyCarriesARecordOrNull() throws {
        for record in WireSamples.records {
            #expect(try roundTripBody(RecordBody(record: record)) == RecordBody(record: record))
        }
        #expect(String(decoding: try SocialWire.encode(RecordBody(record: nil)), as: UTF8.self) == #"{"record":null}"#)
        #expect(try roundTripBody(RecordBody(record: nil)).record == nil)
    }

    @Test func notJSONIsSaidSo() {
        #expect(throws: WireDecodingError(message: "the body is not valid JSON")) {
            try SocialWire.decode(SessionBody.self, from: Data("<html>".utf8))
        }
    }
}
