import BenchmarkSupport
import LiveSocial

/// Makes realistic chat messages: time-ordered server ids, random client request ids, a few
/// thousand senders, and texts of 40 to 80 characters. `createdAt` grows by half a second per
/// message, so messages made later are newer.
struct MessageFactory {
    private var random: SeededGenerator
    private var made = 0
    private let start = 1_700_000_000.0

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// The next message, in `channelId`.
    mutating func next(channelId: String) -> Message {
        let index = made
        made += 1
        let createdAt = start + Double(index) * 0.5
        return Message(
            id: Self.hex(UInt64(createdAt), digits: 8) + Self.hex(UInt64(index), digits: 16),
            clientRequestId: uuid(),
            channelId: channelId,
            userId: "user-\(random.next() % 5_000)",
            text: text(),
            createdAt: createdAt,
            updatedAt: createdAt)
    }

    /// `count` messages, each in a channel `channel(index)` picks.
    mutating func make(_ count: Int, channel: (Int) -> String) -> [Message] {
        (0..<count).map { next(channelId: channel($0)) }
    }

    private mutating func uuid() -> String {
        let high = Self.hex(random.next(), digits: 16)
        let low = Self.hex(random.next(), digits: 16)
        return "\(high.prefix(8))-\(high.dropFirst(8).prefix(4))-\(high.suffix(4))-\(low.prefix(4))-\(low.suffix(12))"
    }

    private mutating func text() -> String {
        let target = 40 + Int(random.next() % 41)
        var text = ""
        while text.count < target {
            if !text.isEmpty { text += " " }
            text += Self.words[Int(random.next() % UInt64(Self.words.count))]
        }
        return String(text.prefix(80))
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static let words = [
        "hey", "there", "the", "meeting", "moved", "to", "three", "o'clock", "can", "you", "check",
        "build", "again", "thanks", "lunch", "sounds", "good", "shipping", "today", "release",
        "notes", "are", "ready", "please", "review", "my", "pull", "request", "when", "free",
        "weekend", "plans", "coffee", "later", "great", "work", "everyone", "deploy", "fixed",
        "the", "crash", "on", "launch", "see", "you", "tomorrow", "morning", "standup",
    ]
}
