/// What the `client-loop` helper runs of one seed said they did, from their output lines: the
/// test's record of every action issued, shown pending and accepted, against which the server's
/// file is checked. It knows nothing of the library: only the helper's words.
struct CrashLedger {
    /// One edit of a message, in the order issued.
    struct Edit {
        var label: String
        var accepted = false
    }

    /// One reaction: added (issued, maybe accepted), then maybe removed (issued, maybe accepted).
    struct ReactionAction {
        var messageId: String
        var name: String
        var addAccepted = false
        var removeIssued = false
        var removeAccepted = false
    }

    /// The labels of every send issued, in order.
    private(set) var issuedSends: [String] = []
    /// The sends shown pending (stored in the cache).
    private(set) var pendingShown: Set<String> = []
    /// The accepted sends: label → the server's message id.
    private(set) var acceptedSends: [String: String] = [:]
    /// Sends, edits and reactions the helper reported as failed, in words.
    private(set) var failures: [String] = []
    /// Every message's edits, by message id, in the order issued.
    private(set) var edits: [String: [Edit]] = [:]
    /// The send label of each accepted message, by id.
    private(set) var labelOfMessage: [String: String] = [:]
    /// Every reaction, by `messageId name`.
    private(set) var reactions: [String: ReactionAction] = [:]
    /// What each run said when it opened (`recovery=… pending=…`), in order.
    private(set) var openings: [String] = []
    /// How many messages the runs found pending when they opened.
    private(set) var pendingAtOpen = 0
    /// How many messages an earlier run left pending were shown sent.
    private(set) var resent = 0
    /// The labels of the messages the server said it stored.
    private(set) var storedByServer: Set<String> = []
    /// Lines the ledger did not understand.
    private(set) var unknownLines: [String] = []
    private(set) var acceptedEdits = 0
    private(set) var acceptedReactions = 0
    private(set) var acceptedRemovals = 0

    /// The labels shown pending in `lines` that were not accepted in them: pending at the kill.
    static func pendingAtKill(in lines: [String]) -> Set<String> {
        var ledger = CrashLedger()
        for line in lines { ledger.read(line) }
        return ledger.pendingShown.subtracting(ledger.acceptedSends.keys)
    }

    /// The labels of the sends in `lines` the server stored but whose answer the run never
    /// heard: answers the kill cut off, which a resend must not store twice.
    static func answersCut(in lines: [String]) -> Set<String> {
        var ledger = CrashLedger()
        for line in lines { ledger.read(line) }
        return ledger.storedByServer.intersection(ledger.issuedSends).subtracting(ledger.acceptedSends.keys)
    }

    /// Records what one output line says.
    mutating func read(_ line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch (words.first ?? "", words.count) {
        case ("opened", _):
            openings.append(line)
            if let count = words.last.flatMap({ Int($0.replacingOccurrences(of: "pending=", with: "")) }) {
                pendingAtOpen += count
            }
        case ("pending", 2):
            pendingShown.insert(words[1])
        case ("resent", 3):
            resent += 1
        case ("issued", _) where words.count >= 3:
            issue(words)
        case ("accepted", _) where words.count >= 3:
            accept(words)
        case ("failed", _):
            failures.append(line)
        case ("server", 2):
            storedByServer.insert(words[1])
        case ("done", 1), ("drained", _), ("stuck", _):
            break
        default:
            unknownLines.append(line)
        }
    }

    private mutating func issue(_ words: [String]) {
        switch (words[1], words.count) {
        case ("send", 3):
            issuedSends.append(words[2])
        case ("edit", 4):
            edits[words[2], default: []].append(Edit(label: words[3]))
        case ("react", 4):
            reactions["\(words[2]) \(words[3])"] = ReactionAction(messageId: words[2], name: words[3])
        case ("unreact", 4):
            reactions["\(words[2]) \(words[3])"]?.removeIssued = true
        default:
            unknownLines.append(words.joined(separator: " "))
        }
    }

    private mutating func accept(_ words: [String]) {
        switch (words[1], words.count) {
        case ("send", 4):
            acceptedSends[words[2]] = words[3]
            labelOfMessage[words[3]] = words[2]
        case ("edit", 4):
            guard let index = edits[words[2]]?.lastIndex(where: { $0.label == words[3] }) else { fallthrough }
            edits[words[2]]?[index].accepted = true
            acceptedEdits += 1
        case ("react", 4) where reactions["\(words[2]) \(words[3])"] != nil:
            reactions["\(words[2]) \(words[3])"]?.addAccepted = true
            acceptedReactions += 1
        case ("unreact", 4) where reactions["\(words[2]) \(words[3])"] != nil:
            reactions["\(words[2]) \(words[3])"]?.removeAccepted = true
            acceptedRemovals += 1
        default:
            unknownLines.append(words.joined(separator: " "))
        }
    }

    /// How many actions the server accepted.
    var acceptedActions: Int { acceptedSends.count + acceptedEdits + acceptedReactions + acceptedRemovals }
}
