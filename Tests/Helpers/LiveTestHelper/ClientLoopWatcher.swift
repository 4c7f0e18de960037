import LiveSocial

/// The `client-loop` command's delegate of its message collection: prints `pending <label>` the
/// first time it shows one of the user's messages pending, and `resent <label> <id>` when one that
/// an earlier run left pending shows as sent; and lets the loop wait for a label to show pending.
@MainActor
final class ClientLoopWatcher: MessageCollectionDelegate {
    let userId: String
    /// The labels of the messages an earlier run left pending.
    var leftPending: Set<String> = []
    private var shownPending: Set<String> = []
    private var shownResent: Set<String> = []
    private var waiters: [String: CheckedContinuation<Void, Never>] = [:]

    init(userId: String) {
        self.userId = userId
    }

    /// Returns once the message labelled `label` showed as pending (or sent: a send can be
    /// answered before the collection hears of its pending copy, never in practice).
    func waitUntilShown(_ label: String) async {
        guard !shownPending.contains(label) else { return }
        await withCheckedContinuation { waiters[label] = $0 }
    }

    /// Called when the send of `label` ended, so that no one waits for it any longer.
    func sendEnded(_ label: String) {
        shownPending.insert(label)
        waiters.removeValue(forKey: label)?.resume()
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]
    ) {
        see(addedMessages)
    }

    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]
    ) {
        see(updatedMessages)
    }

    private func see(_ messages: [Message]) {
        for message in messages where message.userId == userId {
            guard let label = message.metaArrays["label"]?.first else { continue }
            switch message.sendingStatus {
            case .pending:
                guard shownPending.insert(label).inserted else { continue }
                ServerIO.say("pending \(label)")
                waiters.removeValue(forKey: label)?.resume()
            case .succeeded where leftPending.contains(label):
                guard shownResent.insert(label).inserted else { continue }
                ServerIO.say("resent \(label) \(message.id)")
            default:
                continue
            }
        }
    }
}
