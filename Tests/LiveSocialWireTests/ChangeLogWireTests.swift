import LiveSocial
import LiveSocialWire
import Testing

@Suite struct ChangeLogWireTests {
    @Test func aLogWithEveryKindRoundTrips() throws {
        let log = ChangeLog(records: WireSamples.records, deleted: WireSamples.keys, latestSequence: 99, hasMore: true)
        #expect(try roundTrip(log) == log)
    }

    @Test func anEmptyLogRoundTrips() throws {
        let log = ChangeLog(records: [], deleted: [], latestSequence: 0, hasMore: false)
        #expect(try roundTrip(log) == log)
    }
}
