import Foundation
import LiveSocial

/// How real-time events are framed on `GET /v1/events`, a Server-Sent Events stream.
///
/// The stream opens with a `connected` event, then sends each change as
/// `id: <sequence>`, `event: created|updated|deleted` and `data: <event JSON>` (the whole
/// ``LiveSocial/SocialEvent`` wire form on one line), and a comment (``heartbeat``) every
/// heartbeat interval so that a client can tell a quiet stream from a dead one.
public enum WireEventStream {
    /// The comment a server sends every heartbeat interval.
    public static let heartbeat = ": heartbeat\n\n"

    /// The heartbeat interval a server uses unless configured otherwise, in seconds.
    public static let defaultHeartbeatInterval: Double = 15

    /// The frame of one event: `id:` (for changes), `event:` and `data:` lines and a blank line.
    public static func frame(_ event: SocialEvent) throws -> String {
        let data = try SocialWire.encode(event)
        let json = String(decoding: data, as: UTF8.self)
        let id = event.sequence.map { "id: \($0)\n" } ?? ""
        return "\(id)event: \(event.wireName)\ndata: \(json)\n\n"
    }
}
