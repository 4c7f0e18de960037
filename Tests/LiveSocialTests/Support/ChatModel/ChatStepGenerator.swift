import TestSupport

/// Makes the random steps of the chat model check from a seed. What it makes depends only on
/// the seed and on whether the connection is up, so a seed replays the same steps.
struct ChatStepGenerator {
    private var random: SeededRandom
    private var counter = 0

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private enum Kind: CaseIterable {
        case send, sendHeld, sendLost, otherSends, otherEdit, otherDelete, ownEdit, ownDelete, goOffline, goOnline, gap
        case loadPrevious, loadNext, loadWhileSending, reopen, restart, removeFailed
    }

    private static let onlineWeights = [14, 6, 4, 10, 4, 3, 4, 3, 4, 0, 4, 8, 6, 8, 5, 4, 2]
    private static let offlineWeights = [12, 0, 0, 8, 3, 2, 0, 0, 0, 10, 3, 8, 4, 0, 3, 3, 1]

    /// How many messages the server has when a sequence begins.
    mutating func initialMessageCount() -> Int { random.below(25) }

    /// Who writes one of the first messages: 0 is the signed-in user, else another user.
    mutating func initialAuthor(of userCount: Int) -> Int { random.below(userCount) }

    mutating func next(connected: Bool) -> ChatModelStep {
        let weights = connected ? Self.onlineWeights : Self.offlineWeights
        switch Kind.allCases[random.index(weightedBy: weights)] {
        case .send: return .send(ownText())
        case .sendHeld: return .sendHeld((0 ..< 1 + random.below(3)).map { _ in ownText() }, alongside: random.chance(50) ? otherText() : nil)
        case .sendLost: return .sendLost(ownText(refusable: false))
        case .otherSends: return .otherSends(user: random.chance(50) ? "alan" : "grace", texts: (0 ..< 1 + random.below(3)).map { _ in otherText() })
        case .otherEdit: return .otherEdit(pick: random.below(1_000), text: otherText())
        case .otherDelete: return .otherDelete(pick: random.below(1_000))
        case .ownEdit: return .ownEdit(pick: random.below(1_000), text: ownText())
        case .ownDelete: return .ownDelete(pick: random.below(1_000))
        case .goOffline: return .goOffline
        case .goOnline: return .goOnline
        case .gap: return .gap(changes: random.chance(40) ? 12 + random.below(6) : 1 + random.below(3))
        case .loadPrevious: return .loadPrevious
        case .loadNext: return .loadNext
        case .loadWhileSending:
            let load: ChatModelStep.Load = switch random.below(3) {
            case 0: .start(opening())
            case 1: .previous
            default: .next
            }
            return .loadWhileSending(load, texts: (0 ..< 1 + random.below(2)).map { _ in ownText(refusable: false) })
        case .reopen: return .reopen(opening())
        case .restart: return .restart(opening(), heldSend: connected && random.chance(40) ? ownText(refusable: false) : nil)
        case .removeFailed: return .removeFailed
        }
    }

    /// How a new collection opens.
    mutating func opening() -> ChatModelStep.Opening {
        let start: ChatModelStep.Opening.Start = switch random.index(weightedBy: [35, 15, 15, 20, 15]) {
        case 0: .newest
        case 1: .now
        case 2: .atMessage(pick: random.below(1_000))
        case 3: .between(pick: random.below(1_000))
        default: .beforeAll
        }
        let sizes = [0, 1, 2, 3, 5, 8]
        // A message created exactly at the starting point of a collection that is not inclusive
        // is left out by the start, but a page from an edge or an edit can bring it in: the docs
        // say nothing of those, so the model opens exactly at a message (or now, when the server
        // may have just written one) only when inclusive.
        var isInclusive = random.chance(50)
        switch start {
        case .atMessage, .now: isInclusive = true
        case .newest, .between, .beforeAll: break
        }
        return ChatModelStep.Opening(
            start: start, reverse: random.chance(30), isInclusive: isInclusive, previousResultSize: random.pick(sizes),
            nextResultSize: random.pick(sizes), hugeGapThreshold: 5 + random.below(6))
    }

    /// A new text of the signed-in user; one in seven is refused ("spam").
    private mutating func ownText(refusable: Bool = true) -> String {
        counter += 1
        return refusable && random.chance(14) ? "spam\(counter)" : "a\(counter)"
    }

    private mutating func otherText() -> String {
        counter += 1
        return "b\(counter)"
    }
}
