import LiveSocial
import TestSupport

/// The actions of the `client-loop` command (see there): sends, edits and reactions in #general,
/// chosen by a generator seeded with the seed and the run number, each printed when issued and
/// when the server answered.
@MainActor
final class ClientLoop {
    private let client: SocialClient
    private let watcher: ClientLoopWatcher
    private let seed: UInt64
    private let run: Int
    private var random: SeededRandom
    private var counter = 0
    /// This run's messages that the server stored, by id.
    private var sent: [String: Message] = [:]
    /// Their ids, in the order sent (the generator picks from them).
    private var sentIds: [String] = []
    /// This run's reactions that the server stored: message id and name.
    private var reactions: [(messageId: String, name: String)] = []
    private var sends: [Task<Void, Never>] = []

    init(client: SocialClient, watcher: ClientLoopWatcher, seed: UInt64, run: Int) {
        self.client = client
        self.watcher = watcher
        self.seed = seed
        self.run = run
        random = SeededRandom(seed: seed &* 1_000_003 &+ UInt64(run))
    }

    /// Plays `count` actions, then waits for every send's answer.
    func play(_ count: Int) async {
        for _ in 0..<count {
            let roll = random.below(100)
            if roll < 50 || sentIds.isEmpty {
                await sendSome()
            } else if roll < 70 {
                await edit()
            } else if roll < 90 || reactions.isEmpty {
                await react()
            } else {
                await unreact()
            }
        }
        for send in sends { await send.value }
    }

    private func nextLabel(_ kind: String) -> String {
        counter += 1
        return "\(kind)\(seed)r\(run)n\(counter)"
    }

    /// Sends one to three messages at once, and waits until each shows as pending; sometimes (two
    /// times in five) until the server answered them too.
    private func sendSome() async {
        var labels: [String] = []
        var burst: [Task<Void, Never>] = []
        for _ in 0...random.below(3) {
            let label = nextLabel("s")
            labels.append(label)
            ServerIO.say("issued send \(label)")
            burst.append(Task {
                do {
                    let message = try await client.messages.send(label, to: ClientLoopCommand.channelId, metaArrays: ["label": [label]])
                    ServerIO.say("accepted send \(label) \(message.id)")
                    sent[message.id] = message
                    sentIds.append(message.id)
                } catch {
                    ServerIO.say("failed send \(label) \(Self.words(error))")
                }
                watcher.sendEnded(label)
            })
        }
        sends += burst
        for label in labels { await watcher.waitUntilShown(label) }
        if random.below(5) < 2 {
            for send in burst { await send.value }
        }
    }

    private func edit() async {
        guard let message = sent[random.pick(sentIds)] else { return }
        let label = nextLabel("e")
        ServerIO.say("issued edit \(message.id) \(label)")
        do {
            try await client.messages.edit(message, text: label)
            sent[message.id]?.text = label
            ServerIO.say("accepted edit \(message.id) \(label)")
        } catch {
            ServerIO.say("failed edit \(message.id) \(label) \(Self.words(error))")
        }
    }

    private func react() async {
        let messageId = random.pick(sentIds)
        let name = nextLabel("r")
        ServerIO.say("issued react \(messageId) \(name)")
        do {
            try await client.reactions.add(name, to: .message, targetId: messageId)
            reactions.append((messageId, name))
            ServerIO.say("accepted react \(messageId) \(name)")
        } catch {
            ServerIO.say("failed react \(messageId) \(name) \(Self.words(error))")
        }
    }

    private func unreact() async {
        let (messageId, name) = reactions.remove(at: random.below(reactions.count))
        ServerIO.say("issued unreact \(messageId) \(name)")
        do {
            try await client.reactions.remove(name, from: .message, targetId: messageId)
            ServerIO.say("accepted unreact \(messageId) \(name)")
        } catch {
            ServerIO.say("failed unreact \(messageId) \(name) \(Self.words(error))")
        }
    }

    private static func words(_ error: any Error) -> String {
        "\(error)".replacingOccurrences(of: "\n", with: " ")
    }
}
