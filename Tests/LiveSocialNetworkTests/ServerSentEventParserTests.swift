import Foundation
import LiveSocialNetwork
import Testing

@Suite struct ServerSentEventParserTests {
    /// A stream with every feature: comments, ids, retry, multi-line data, an event without a
    /// type, CRLF, CR and LF line ends, a field without a colon, an unknown field, and a
    /// character of several bytes.
    static let stream = ": heartbeat\r\n"
        + "retry: 2500\n"
        + "id: 7\r\n"
        + "event: created\r\n"
        + "data: {\"a\":1}\r\n"
        + "\r\n"
        + "data:first\rdata:  second\r\rid\ndata\nunknown: x\n\n"
        + ": heartbeat\n\n"
        + "event: updated\ndata: 🦊 ünï\n\n"

    static let expected = [
        ServerSentEvent(type: "created", data: #"{"a":1}"#, lastEventId: "7"),
        ServerSentEvent(type: "message", data: "first\n second", lastEventId: "7"),
        ServerSentEvent(type: "message", data: "", lastEventId: ""),
        ServerSentEvent(type: "updated", data: "🦊 ünï", lastEventId: ""),
    ]

    @Test func aWholeStreamParsesInOneChunk() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array(Self.stream.utf8)) == Self.expected)
        #expect(parser.reconnectionTime == 2500)
        #expect(parser.commentCount == 2)
    }

    @Test func theSameEventsComeOutWhateverTheSplit() {
        let bytes = Array(Self.stream.utf8)
        for split in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.parse(bytes[..<split]) + parser.parse(bytes[split...])
            #expect(events == Self.expected, "split at byte \(split)")
        }
    }

    @Test func byteByByteGivesTheSameEvents() {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in Self.stream.utf8 { events += parser.parse([byte]) }
        #expect(events == Self.expected)
    }

    @Test func aCRLFSplitBetweenChunksEndsOneLine() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: a\r".utf8)).isEmpty)
        // The LF completes the CRLF above; only the next line end (blank line) dispatches.
        #expect(parser.parse(Array("\n".utf8)).isEmpty)
        #expect(parser.parse(Array("\r\n".utf8)) == [ServerSentEvent(type: "message", data: "a", lastEventId: nil)])
    }

    @Test func anEventWithoutDataIsNotDispatchedAndItsTypeDoesNotLeak() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("event: ping\n\ndata: x\n\n".utf8)) == [ServerSentEvent(type: "message", data: "x", lastEventId: nil)])
    }

    @Test func aLeadingByteOrderMarkIsSkipped() {
        var parser = ServerSentEventParser()
        #expect(parser.parse([0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)) == [ServerSentEvent(type: "message", data: "x", lastEventId: nil)])
    }

    @Test func anIdWithNulAndABadRetryAreIgnored() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("id: 5\nretry: 100\n\nid: 6\u{0}x\nretry: 1.5\nretry: -3\ndata: y\n\n".utf8))
        #expect(parser.lastEventId == "5")
        #expect(parser.reconnectionTime == 100)
    }

    @Test func onlyOneSpaceAfterTheColonIsDropped() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data:   x \n\n".utf8)).first?.data == "  x ")
    }

    @Test func anUnfinishedEventWaitsForItsBlankLine() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("event: created\ndata: x\n".utf8)).isEmpty)
        #expect(parser.parse(Array("\n".utf8)).count == 1)
    }
}
