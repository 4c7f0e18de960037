import Foundation

extension NetworkChatter {
    /// Sends `text` and waits until its sender shows it, pending or already sent, as the user
    /// sees it; the next action of a fault suite lands while it may still be on its way.
    func sendShowing(_ text: String, to channelId: String) async throws {
        send(text, to: channelId)
        try await eventually("\"\(text)\" shows") {
            let pending = try await unsentTexts().contains(text)
            let stored = try await storedTexts(in: channelId)[text] != nil
            return pending || stored
        }
    }

    /// How a chat under faults ends once the faults stop: every user reconnects, nothing stays
    /// pending (within `pendingLimit`), and every text is stored on the server exactly once;
    /// then each user shows every text once. Returns what was found wrong (texts stored other
    /// than once, and what `problems` adds), nil when nothing; a wait that runs out is recorded
    /// as an issue, with each user's pending texts and connection (and `explainMore`), and thrown.
    static func settle(
        _ chatters: [NetworkChatter], texts: [String], in channelId: String, pendingLimit: Duration = .seconds(60),
        explainMore: @escaping () async -> String = { "" }, problems: () async throws -> [String] = { [] }
    ) async throws -> String? {
        let explain: () async -> String = {
            var parts: [String] = []
            for chatter in chatters {
                let unsent = (try? await chatter.unsentTexts()) ?? []
                parts.append("\(chatter.userId) unsent \(unsent), \(chatter.userId) \(chatter.api.currentConnectionState)")
            }
            let more = await explainMore()
            return parts.joined(separator: ", ") + (more.isEmpty ? "" : "; " + more)
        }
        try await eventually("every user reconnects", explain: explain) { chatters.allSatisfy { $0.client.isConnected } }
        try await eventually("every pending message is sent", within: pendingLimit, explain: explain) {
            for chatter in chatters where try await !chatter.unsentTexts().isEmpty { return false }
            return true
        }
        let stored = try await ServerMessages(in: channelId, api: chatters[0].api)
        var wrong = texts.filter { stored.byText[$0] != 1 }.map { "\"\($0)\" stored \(stored.byText[$0] ?? 0) times" }
        wrong += try await problems()
        if !wrong.isEmpty { return wrong.joined(separator: "; ") }
        for chatter in chatters {
            try await eventually("\(chatter.userId) shows every message once", explain: {
                let shown = (try? await chatter.storedTexts(in: channelId)) ?? [:]
                return "\(chatter.userId) misses \(texts.filter { shown[$0] != 1 })"
            }) {
                let shown = try await chatter.storedTexts(in: channelId)
                return texts.allSatisfy { shown[$0] == 1 }
            }
        }
        return nil
    }
}
