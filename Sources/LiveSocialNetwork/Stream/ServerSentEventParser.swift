/// Reads a Server-Sent Events stream (`text/event-stream`) from chunks of bytes, however the
/// chunks split it.
///
/// It follows the WHATWG event-stream rules: lines end with CRLF, LF or CR (a CRLF split
/// between two chunks counts once); a leading byte-order mark is skipped; a line starting with
/// `:` is a comment; `field: value` loses one space after the colon; `data` lines accumulate
/// joined by line feeds; `id` sets the last event id (one holding a NUL is ignored); `retry`
/// with only digits sets ``reconnectionTime``; unknown fields are ignored; a blank line
/// dispatches the event, unless it has no data. Bytes are kept until their line ends, so a
/// UTF-8 character split between chunks decodes whole; invalid UTF-8 decodes as U+FFFD.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var atStart = true
    private var eventType = ""
    private var data = ""
    private var hasData = false

    /// The stream's last event id: the latest `id:` field seen.
    public private(set) var lastEventId: String?
    /// The reconnection time the server asked for with `retry:`, in milliseconds, if any.
    public private(set) var reconnectionTime: Int?
    /// How many comment lines (such as heartbeats) the stream has carried.
    public private(set) var commentCount = 0

    /// Creates a parser at the start of a stream.
    public init() {}

    /// Reads the next chunk of the stream and returns the events it completes, in order.
    public mutating func parse(_ chunk: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            switch byte {
            case 0x0A where lastWasCR:
                lastWasCR = false
            case 0x0A, 0x0D:
                lastWasCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                lastWasCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the current line and returns the event a blank line dispatches.
    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") {
            commentCount += 1
            return nil
        }
        let field: String
        var value: Substring
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[bytes.index(after: colon)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = Substring(String(decoding: rest, as: UTF8.self))
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            value = ""
        }
        process(field: field, value: value)
        return nil
    }

    private mutating func process(field: String, value: Substring) {
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            if hasData { data.append("\n") }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains("\u{0}") { lastEventId = String(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int(value) {
                reconnectionTime = milliseconds
            }
        default:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventId: lastEventId)
    }
}
