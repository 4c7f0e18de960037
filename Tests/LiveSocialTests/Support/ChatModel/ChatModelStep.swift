/// One step of the chat model check. Texts are unique within a sequence; a text containing
/// "spam" is refused by the server's rule. `pick`s choose among the messages that exist when the
/// step runs (modulo their number), so a step stays valid whatever came before.
enum ChatModelStep: CustomStringConvertible {
    /// How a collection opens.
    struct Opening: CustomStringConvertible {
        enum Start {
            /// `.infinity`: the newest messages.
            case newest
            /// The client's time now.
            case now
            /// Exactly a message's creation time (the collection is then inclusive).
            case atMessage(pick: Int)
            /// Between two messages.
            case between(pick: Int)
            /// Before every message.
            case beforeAll
        }

        var start: Start
        var reverse: Bool
        var isInclusive: Bool
        var previousResultSize: Int
        var nextResultSize: Int
        var hugeGapThreshold: Int

        var description: String {
            "open(\(start), reverse: \(reverse), inclusive: \(isInclusive), previous: \(previousResultSize), next: \(nextResultSize), gap: \(hugeGapThreshold))"
        }
    }

    /// The page a load that races with sends asks for.
    enum Load: CustomStringConvertible {
        case start(Opening)
        case previous
        case next

        var description: String {
            switch self {
            case .start(let opening): "start \(opening)"
            case .previous: "loadPrevious"
            case .next: "loadNext"
            }
        }
    }

    /// The signed-in user sends `text` (answered at once, or refused).
    case send(String)
    /// Sends held by latency: while the first waits, another user writes `alongside` (if any).
    case sendHeld([String], alongside: String?)
    /// A send whose answer is lost: the server stores it, the client hears "offline".
    case sendLost(String)
    /// Another user sends `texts`.
    case otherSends(user: String, texts: [String])
    /// Another user edits or deletes one of their messages.
    case otherEdit(pick: Int, text: String)
    case otherDelete(pick: Int)
    /// The signed-in user edits or deletes one of their listed messages.
    case ownEdit(pick: Int, text: String)
    case ownDelete(pick: Int)
    /// The connection drops or comes back.
    case goOffline
    case goOnline
    /// Offline, others make `changes` new messages, then online: a short gap or a huge one.
    case gap(changes: Int)
    case loadPrevious
    case loadNext
    /// A load under latency, with sends made while it waits for the server.
    case loadWhileSending(Load, texts: [String])
    /// Disposes of the collection, lets another user write, then opens a new one.
    case reopen(Opening)
    /// Drops the client and its collection and makes a new client over the same cache file, as
    /// an app relaunch; `heldSend` is sent under latency just before and still waits.
    case restart(Opening, heldSend: String?)
    /// Removes the failed messages the collection lists.
    case removeFailed

    var description: String {
        switch self {
        case .send(let text): "send \(text)"
        case .sendHeld(let texts, let alongside): "sendHeld \(texts)" + (alongside.map { " alongside \($0)" } ?? "")
        case .sendLost(let text): "sendLost \(text)"
        case .otherSends(let user, let texts): "\(user) sends \(texts)"
        case .otherEdit(let pick, let text): "otherEdit #\(pick) → \(text)"
        case .otherDelete(let pick): "otherDelete #\(pick)"
        case .ownEdit(let pick, let text): "ownEdit #\(pick) → \(text)"
        case .ownDelete(let pick): "ownDelete #\(pick)"
        case .goOffline: "goOffline"
        case .goOnline: "goOnline"
        case .gap(let changes): "gap of \(changes) changes"
        case .loadPrevious: "loadPrevious"
        case .loadNext: "loadNext"
        case .loadWhileSending(let load, let texts): "\(load) while sending \(texts)"
        case .reopen(let opening): "reopen \(opening)"
        case .restart(let opening, let held): "restart \(opening)" + (held.map { " with \($0) held" } ?? "")
        case .removeFailed: "removeFailed"
        }
    }
}
