import LiveRepository
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct PageBodyTests {
    @Test func aTypedPageRoundTripsThroughTheBody() throws {
        let page = RemotePage(records: [WireSamples.channel, WireSamples.emptyChannel], nextCursor: "next")
        let body = try #require(PageBody(page))
        let read = try roundTripBody(body).page(of: Channel.self)
        #expect(read.records == page.records)
        #expect(read.nextCursor == "next")
    }

    @Test func aTypedPageRoundTripsOnItsOwn() throws {
        let page = RemotePage(records: [WireSamples.post], nextCursor: nil)
        let read = try roundTrip(page)
        #expect(read.records == page.records && read.nextCursor == nil)
    }

    @Test func aRecordOfAnotherKindIsRefused() {
        let body = PageBody(records: [.channel(WireSamples.channel), .message(WireSamples.message)], nextCursor: nil)
        #expect(throws: WireDecodingError(message: #"at "records[1]": expected a record of type Channel, found message"#)) {
            try body.page(of: Channel.self)
        }
    }

    @Test func theRequestRoundTripsForEveryQueryKind() throws {
        for kind in WireSamples.queryKinds {
            let request = PageRequest(query: kind, cursor: kind.wireName.count.isMultiple(of: 2) ? nil : "c", limit: 20)
            #expect(try roundTripBody(request) == request)
        }
    }
}
