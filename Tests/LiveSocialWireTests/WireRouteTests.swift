import LiveSocial
import LiveSocialWire
import Testing

@Suite struct WireRouteTests {
    @Test func aRecordPathEncodesTheIdAsOneSegment() {
        #expect(WireRoute.record(.post, id: "p1") == "/v1/records/post/p1")
        #expect(WireRoute.record(.follow, id: "ada->alan") == "/v1/records/follow/ada-%3Ealan")
        #expect(WireRoute.record(.reaction, id: "a/b c?d") == "/v1/records/reaction/a%2Fb%20c%3Fd")
        #expect(WireRoute.record(.channelMember, id: "general:ada") == "/v1/records/channelMember/general:ada")
    }
}
