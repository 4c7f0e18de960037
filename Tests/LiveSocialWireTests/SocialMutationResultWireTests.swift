import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialMutationResultWireTests {
    @Test func aResultRoundTrips() throws {
        let result = SocialMutationResult(
            records: [.message(WireSamples.message), .channel(WireSamples.channel)],
            deleted: [SocialRecordKey(.reaction, WireSamples.reaction.id)], sequence: 7)
        #expect(try roundTrip(result) == result)
        let empty = SocialMutationResult(records: [], deleted: [], sequence: 0)
        #expect(try roundTrip(empty) == empty)
    }
}
