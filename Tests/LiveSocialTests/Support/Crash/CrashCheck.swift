/// The crash tests' invariants: what the helper's words (a ``CrashLedger``) promise about the
/// server file and the cache file, each broken one as a sentence naming what was lost, doubled or
/// left behind.
enum CrashCheck {
    /// After every run, killed or not: every accepted action is on the server, no send is there
    /// twice, and nothing is there that was never issued.
    static func server(
        _ ledger: CrashLedger, seed: UInt64, messages: [CrashFiles.Row], reactions: Set<String>
    ) -> [String] {
        var problems = ledger.failures.map { "the helper reported: \($0)" }
        problems += ledger.unknownLines.map { "the helper printed a line the test does not know: \($0)" }
        let byLabel = Dictionary(grouping: messages, by: \.label)
        let issued = Set(ledger.issuedSends)
        for (label, rows) in byLabel.sorted(by: { $0.key < $1.key }) {
            if rows.count > 1 { problems.append("send \(label) is on the server \(rows.count) times: \(rows.map(\.id))") }
            if !issued.contains(label) { problems.append("the server has \(label), which no run issued") }
        }
        for (requestId, rows) in Dictionary(grouping: messages, by: \.clientRequestId) where rows.count > 1 {
            problems.append("client request id \(requestId) is on the server \(rows.count) times")
        }
        for (label, id) in ledger.acceptedSends.sorted(by: { $0.key < $1.key }) {
            let rows = byLabel[label] ?? []
            if rows.isEmpty {
                problems.append("accepted send \(label) (\(id)) is not on the server")
            } else if !rows.contains(where: { $0.id == id }) {
                problems.append("accepted send \(label) is on the server as \(rows.map(\.id)), not as \(id)")
            }
        }
        let byId = Dictionary(grouping: messages, by: \.id)
        for (id, edits) in ledger.edits.sorted(by: { $0.key < $1.key }) {
            guard let row = byId[id]?.first else { continue }  // an accepted send that is lost: said above
            // The last accepted edit, or one issued after it (its answer may have been cut by the kill).
            let allowed: [String]
            if let last = edits.lastIndex(where: \.accepted) {
                allowed = edits[last...].map(\.label)
            } else {
                allowed = [ledger.labelOfMessage[id] ?? row.label] + edits.map(\.label)
            }
            if !allowed.contains(row.text) {
                problems.append("message \(id) reads \(row.text) on the server; its edits allow only \(allowed)")
            }
        }
        for (key, reaction) in ledger.reactions.sorted(by: { $0.key < $1.key }) {
            let present = reactions.contains(key)
            if reaction.addAccepted && !reaction.removeIssued && !present {
                problems.append("accepted reaction \(reaction.name) on \(reaction.messageId) is not on the server")
            }
            if reaction.removeAccepted && present {
                problems.append("reaction \(reaction.name) on \(reaction.messageId) is on the server after its removal was accepted")
            }
        }
        for key in reactions.sorted() where key.split(separator: " ").last?.hasPrefix("r\(seed)r") == true {
            if ledger.reactions[key] == nil { problems.append("the server has reaction \(key), which no run issued") }
        }
        return problems
    }

    /// After the drain: every message stored as pending is on the server exactly once, nothing is
    /// pending, failed or unsynced in the cache, and the cache agrees with the server on every
    /// message of the user it holds.
    static func drained(
        _ ledger: CrashLedger, server: [CrashFiles.Row], cache: [CrashFiles.Row], unsynced: [String],
        serverReactions: Set<String>, cachedReactions: Set<String>, drainLines: [String]
    ) -> [String] {
        var problems: [String] = []
        if !drainLines.contains("drained failed=0") {
            problems.append("the drain did not end with `drained failed=0`: \(drainLines.suffix(3))")
        }
        let onServer = Dictionary(grouping: server, by: \.label).mapValues(\.count)
        let stored = ledger.pendingShown.union(ledger.acceptedSends.keys)
        let missing = stored.filter { onServer[$0] == nil }.sorted()
        if !missing.isEmpty {
            problems.append("\(missing.count) messages shown pending or accepted are not on the server after the drain: \(missing.prefix(10))")
        }
        let localCopies = cache.filter { $0.id == $0.clientRequestId }
        if !localCopies.isEmpty {
            problems.append("the cache still holds \(localCopies.count) unsent messages: \(localCopies.prefix(5).map { "\($0.label) \($0.syncState)" })")
        }
        if !unsynced.isEmpty {
            problems.append("the cache holds \(unsynced.count) records out of sync after the drain: \(unsynced.prefix(10))")
        }
        let serverById = Dictionary(server.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in cache where row.id != row.clientRequestId {
            guard let truth = serverById[row.id] else {
                problems.append("the cache holds message \(row.id) (\(row.label)), which the server does not have")
                continue
            }
            if truth.text != row.text {
                problems.append("the cache shows \(row.text) for message \(row.id); the server has \(truth.text)")
            }
        }
        // The reactions the runs made or took back: the cache holds what the server holds.
        let played = Set(ledger.reactions.keys)
        let onlyCached = cachedReactions.intersection(played).subtracting(serverReactions).sorted()
        let notCached = serverReactions.intersection(played).subtracting(cachedReactions).sorted()
        for key in onlyCached + notCached {
            let reaction = ledger.reactions[key]
            let story = reaction.map {
                "add \($0.addAccepted ? "accepted" : "issued"), removal \($0.removeAccepted ? "accepted" : $0.removeIssued ? "issued" : "not issued")"
            } ?? "never issued"
            problems.append("reaction \(key) is \(notCached.contains(key) ? "on the server but not in the cache" : "in the cache but not on the server") (\(story))")
        }
        return problems
    }
}
