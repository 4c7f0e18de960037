import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

extension ChatModelRun {
    func perform(_ step: ChatModelStep) async throws {
        switch step {
        case .send(let text):
            send(text)
        case .sendHeld(let texts, let alongside):
            coverage.held += 1
            server.setLatency(.seconds(1))
            for text in texts { send(text) }
            await clock.waitForSleepers(1)
            if let alongside { try await otherSend(alongside, as: "alan") }
            server.setLatency(.zero)
        case .sendLost(let text):
            coverage.lostAnswers += 1
            server.dropNextResponses(1)
            send(text)
            try await quiesce()
            server.resetFailures()
            server.rejectMessages(containing: "spam", reason: "no spam")
        case .otherSends(let user, let texts):
            for text in texts { try await otherSend(text, as: user) }
        case .otherEdit(let pick, let text):
            guard let target = try pickMessage(pick, { $0.userId != Self.me && !$0.isDeleted }) else { return }
            coverage.otherEdits += 1
            try await otherChange(.editMessage(id: target.id, text: text), as: target.userId)
        case .otherDelete(let pick):
            guard let target = try pickMessage(pick, { $0.userId != Self.me && !$0.isDeleted }) else { return }
            coverage.otherDeletes += 1
            try await otherChange(.deleteMessage(id: target.id), as: target.userId)
        case .ownEdit(let pick, let text):
            let mine = collection.succeededMessages.filter { $0.userId == Self.me }
            guard !mine.isEmpty else { return }
            let target = mine[pick % mine.count]
            coverage.ownEdits += 1
            do {
                try await client.messages.edit(target, text: text)
                failedEdits[target.id] = nil
            } catch SocialAPIError.rejected {
                coverage.refused += 1
                failedEdits[target.id] = text
            }
        case .ownDelete(let pick):
            let mine = collection.succeededMessages.filter { $0.userId == Self.me }
            guard !mine.isEmpty else { return }
            coverage.ownDeletes += 1
            try await client.messages.delete(mine[pick % mine.count])
        case .goOffline:
            try await goOffline()
        case .goOnline:
            try await goOnline()
        case .gap(let changes):
            if connected { try await goOffline() }
            for _ in 0 ..< changes { try await otherSend("g\(history.count)-\(changedOffline.count)", as: "grace") }
            try await goOnline()
        case .loadPrevious:
            try await loadPage(previous: true)
        case .loadNext:
            try await loadPage(previous: false)
        case .loadWhileSending(let load, let texts):
            try await loadWhileSending(load, texts: texts)
        case .reopen(let opening):
            try await reopen(opening)
        case .restart(let opening, let heldSend):
            try await restart(opening, heldSend: heldSend)
        case .removeFailed:
            let failed = collection.failedMessages
            guard !failed.isEmpty else { return }
            let removed = try await client.messages.removeFailed(failed)
            removedTexts.formUnion(failed.filter { removed.contains($0.clientRequestId) }.map(\.text))
        }
    }

    // MARK: Sending

    /// Sends as the signed-in user without waiting for the outcome (offline, it stays pending).
    func send(_ text: String) {
        coverage.sends += 1
        if text.contains("spam") {
            coverage.refused += 1
            refusedTexts.insert(text)
        } else {
            ownTexts.insert(text)
        }
        unfinished += 1
        let client = self.client
        Task {
            _ = try? await client.messages.send(text, to: Self.channelId)
            self.unfinished -= 1
        }
    }

    func otherSend(_ text: String, as user: String) async throws {
        coverage.otherMessages += 1
        let requestId = "other-\(text)"
        try await otherChange(.sendText(text, channelId: Self.channelId, clientRequestId: requestId), as: user)
    }

    /// A change made by another user's client: a real write with its events and change log.
    func otherChange(_ mutation: SocialMutation, as user: String) async throws {
        let result = try await server.perform(mutation, as: user)
        if !connected { changedOffline.formUnion(result.records.compactMap { record -> String? in
            if case .message(let message) = record { message.id } else { nil }
        }) }
    }

    /// A message of the channel on the server satisfying `condition`, chosen by `pick`.
    func pickMessage(_ pick: Int, _ condition: (ServerReference.Row) -> Bool) throws -> ServerReference.Row? {
        let rows = try reference.messages(in: Self.channelId).filter(condition)
        return rows.isEmpty ? nil : rows[pick % rows.count]
    }

    // MARK: Connection

    func goOffline() async throws {
        coverage.offline += 1
        server.disconnect()
        connected = false
        changedOffline = []
        try await waitForConnection(false)
    }

    func goOnline() async throws {
        let pendingCount = collection.pendingMessages.count
        // A collection that started offline, or whose pages came from the cache, loads from
        // the server again instead of catching up: no gap then.
        let expectsGap = collectionSynced && !mirror.awaitsServer && changedOffline.count > opening.hugeGapThreshold
        let mayGap = collectionSynced && !mirror.awaitsServer && changedOffline.count + pendingCount > opening.hugeGapThreshold
        if collectionSynced, !changedOffline.isEmpty, !mayGap { coverage.shortGaps += 1 }
        sequenceAtConnect = try await server.latestSequence()
        server.reconnect()
        connected = true
        try await waitForConnection(true)
        try await quiesce()
        let gaps = mirror.hugeGaps
        if expectsGap, gaps == 0 {
            throw ChatModelFailure(
                what: "no huge gap after \(changedOffline.count) changes offline", expected: "didDetectHugeGap (threshold \(opening.hugeGapThreshold))",
                actual: "a catch-up")
        }
        if !mayGap, gaps > 0 {
            throw ChatModelFailure(
                what: "a huge gap after only \(changedOffline.count) changes offline and \(pendingCount) pending",
                expected: "a catch-up (threshold \(opening.hugeGapThreshold))", actual: "didDetectHugeGap")
        }
    }

    /// Waits until the client has applied the connection event that makes `isConnected` equal `up`.
    func waitForConnection(_ up: Bool) async throws {
        for _ in 0 ..< 10_000 where client.isConnected != up {
            await Task.yield()
        }
        guard client.isConnected == up else {
            throw ChatModelFailure(what: "the client never heard the connection change", expected: "isConnected \(up)", actual: "\(!up)")
        }
    }

    // MARK: Collections

    /// Opens a collection with `opening` (disposing the current one first when `replacing`) and
    /// starts it; the start runs on while this returns.
    func open(_ opening: ChatModelStep.Opening, replacing: Bool) async throws {
        if replacing { dispose() }
        self.opening = opening
        let rows = try reference.messages(in: Self.channelId).filter { !$0.isDeleted }
        let startingPoint: Double
        switch opening.start {
        case .newest:
            startingPoint = .infinity
        case .now:
            startingPoint = client.now()
        case .atMessage(let pick):
            startingPoint = rows.isEmpty ? client.now() : rows[pick % rows.count].createdAt
        case .between(let pick):
            if rows.count < 2 {
                startingPoint = Self.epoch
            } else {
                let index = pick % (rows.count - 1)
                startingPoint = (rows[index].createdAt + rows[index + 1].createdAt) / 2
            }
        case .beforeAll:
            startingPoint = Self.epoch - 1
        }
        if startingPoint.isFinite { coverage.startsInThePast += 1 }
        let params = MessageListParams(
            reverse: opening.reverse, isInclusive: opening.isInclusive, previousResultSize: opening.previousResultSize,
            nextResultSize: opening.nextResultSize)
        collection = client.createMessageCollection(
            channelId: Self.channelId, startingPoint: startingPoint, params: params, hugeGapThreshold: opening.hugeGapThreshold)
        mirror = CollectionMirror(collection: collection, userId: Self.me)
        collectionSynced = false
        lastLoadError = nil
        let mirror = self.mirror
        mirror.loadsUnderWay += 1
        unfinished += 1
        collection.startCollection(initPolicy: .cacheAndReplaceByApi, cacheResultHandler: { _, _ in
            if mirror.isDisposed { mirror.problem("the start's cache handler was called after dispose") }
        }) { [weak self] _, error in
            if mirror.isDisposed { mirror.problem("the start's API handler was called after dispose") }
            mirror.loadsUnderWay -= 1
            guard let self else { return }
            self.unfinished -= 1
            self.lastLoadError = error
            if error == nil { self.collectionSynced = true } else { mirror.awaitsServer = true }
        }
    }

    /// Disposes of the collection; its mirror must hear nothing more.
    func dispose() {
        coverage.disposes += 1
        collection.dispose()
        mirror.markDisposed()
        retired.append(mirror)
    }

    func reopen(_ opening: ChatModelStep.Opening) async throws {
        dispose()
        // Something happens while no collection is open.
        try await otherSend("r\(history.count)", as: "alan")
        try await quiesce()
        let rows = try reference.messages(in: Self.channelId)
        try await open(opening, replacing: false)
        try await quiesce()
        try await checkStartWindow(rowsBefore: rows)
    }

    /// Relaunches the app: the collection and the client go, a new client opens the same cache file.
    func restart(_ opening: ChatModelStep.Opening, heldSend: String?) async throws {
        coverage.restarts += 1
        if let heldSend {
            server.setLatency(.seconds(1))
            send(heldSend)
            await clock.waitForSleepers(1)
        }
        let pending = collection.pendingMessages.map(\.text)
        coverage.pendingAcrossRestarts += pending.count
        dispose()
        client.stopRealtime()
        await client.store.close()
        server.setLatency(.zero)
        (client, api) = try Self.makeClient(server: server, clock: clock, cache: folder.file("cache.sqlite"))
        sequenceAtConnect = try await server.latestSequence()
        client.startRealtime()
        if connected { try await waitForConnection(true) }
        try await open(opening, replacing: false)
        try await quiesce()
        // What was pending survives: still pending, or sent once the connection allowed.
        let listed = Set(collection.pendingMessages.map(\.text))
        let stored = Set(try reference.messages(in: Self.channelId).filter { $0.userId == Self.me }.map(\.text))
        for text in pending where !listed.contains(text) && !(connected && stored.contains(text)) {
            throw ChatModelFailure(
                what: "a pending message did not survive the restart", expected: "\(text) pending or sent",
                actual: "pending \(listed.sorted()), on the server: \(stored.contains(text))")
        }
        if heldSend == nil { try await checkStartWindow(rowsBefore: nil) }
    }

    /// A huge gap leaves the collection stale: dispose of it and open a new one, as the docs say.
    func handleHugeGap() async throws {
        guard mirror.hugeGaps > 0 else { return }
        coverage.hugeGaps += 1
        try await open(generator.opening(), replacing: true)
        try await quiesce()
    }

    // MARK: Loads

    func loadPage(previous: Bool) async throws {
        let before = collection.succeededMessages
        let hadMore = previous ? collection.hasPrevious : collection.hasNext
        let rows = try reference.messages(in: Self.channelId)
        mirror.loadsUnderWay += 1
        defer { mirror.loadsUnderWay -= 1 }
        do {
            if previous { try await collection.loadPrevious() } else { try await collection.loadNext() }
            if !connected {
                // A page from the cache: the collection loads from the server again once the
                // connection is back, which may move hasPrevious and hasNext.
                coverage.offlinePages += 1
                mirror.awaitsServer = true
                return
            }
        } catch ChatError.noMorePages where !hadMore {
            return
        } catch SocialAPIError.offline where !connected {
            coverage.offlinePages += 1
            return
        } catch {
            throw ChatModelFailure(what: "\(previous ? "loadPrevious" : "loadNext") failed", expected: "a page",
                                   actual: "\(error) (hasMore \(hadMore), connected \(connected))")
        }
        if !hadMore {
            throw ChatModelFailure(what: "a page loaded past the end", expected: "ChatError.noMorePages", actual: "a page")
        }
        if previous { coverage.pagesPrevious += 1 } else { coverage.pagesNext += 1 }
        if connected { try await checkPageWindow(previous: previous, before: before, rowsBefore: rows) }
    }

    /// A start or a page under latency, with sends made while it waits for the server: each
    /// message the user sent must stay shown, from pending to sent.
    func loadWhileSending(_ load: ChatModelStep.Load, texts: [String]) async throws {
        server.setLatency(.seconds(1))
        let sleepersBefore = clock.sleeperCount
        switch load {
        case .start(let opening):
            try await open(opening, replacing: true)
        case .previous, .next:
            let previous: Bool = if case .previous = load { true } else { false }
            guard previous ? collection.hasPrevious : collection.hasNext else {
                server.setLatency(.zero)
                return
            }
            let collection = self.collection
            let mirror = self.mirror
            mirror.loadsUnderWay += 1
            unfinished += 1
            Task {
                _ = try? await previous ? collection.loadPrevious() : collection.loadNext()
                mirror.loadsUnderWay -= 1
                self.unfinished -= 1
            }
        }
        if connected { await clock.waitForSleepers(sleepersBefore + 1) }
        coverage.sendsDuringLoads += texts.count
        for text in texts { send(text) }
        server.setLatency(.zero)
    }
}
