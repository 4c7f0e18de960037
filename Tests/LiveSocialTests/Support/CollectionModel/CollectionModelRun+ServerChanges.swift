import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// The server-side steps of a collection model sequence, and the real-time events they cause:
/// delivered, duplicated, delayed or dropped, and caught up through the change log.
extension CollectionModelRun {
    // MARK: Server-side changes

    func nextText(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)-\(seed)-\(counter)"
    }

    func serverInsert(user: Int, matching: Bool) async throws {
        let author = ["bob", "cy", "ada"][user % 3]
        switch subject {
        case .feed:
            let community = matching ? CollectionSubject.community : CollectionSubject.otherCommunity
            try await server.perform(.createPost(targetType: .community, targetId: community, text: nextText("post")), as: author)
        case .channels:
            counter += 1
            try await server.createChannel(id: "ch\(counter)", displayName: "channel \(counter)", type: .community,
                                           memberIds: ["bob", "ada"])
        case .chat:
            let channel = matching ? CollectionSubject.channel : CollectionSubject.otherChannel
            let text = nextText("message")
            try await server.perform(.sendText(text, channelId: channel, clientRequestId: "request-" + text), as: author)
        }
    }

    /// The server's live rows of the shown kind, in a stable order.
    func serverCandidates(of kind: SocialRecordKind? = nil) -> [SocialRecord] {
        let kind = kind ?? subject.kind
        return serverRows.values.filter { record in
            guard record.kind == kind else { return false }
            return switch record {
            case .post(let post): !post.isDeleted
            case .message(let message): !message.isDeleted
            case .channel(let channel): !channel.isDeleted
            default: false
            }
        }.sorted { $0.base.id < $1.base.id }
    }

    func serverUpdate(pick: Int) async throws {
        let candidates = serverCandidates()
        guard !candidates.isEmpty else { return count("noOps") }
        switch candidates[pick % candidates.count] {
        case .post(let post):
            try await server.perform(.updatePost(id: post.id, text: nextText("edited")), as: post.authorId)
        case .message(let message):
            try await server.perform(.editMessage(id: message.id, text: nextText("edited")), as: message.userId)
        case .channel(let channel):
            // Another member joins or leaves: the channel's member count changes in place.
            let joined = serverRows[SocialRecordKey(.channelMember, ChannelMember.makeID(channelId: channel.id, userId: "cy"))]
            let isMember = if case .channelMember(let member)? = joined { member.membership == .member } else { false }
            try await server.perform(isMember ? .leaveChannel(id: channel.id) : .joinChannel(id: channel.id), as: "cy")
        default:
            break
        }
    }

    func serverDelete(pick: Int) async throws {
        let candidates = serverCandidates()
        guard !candidates.isEmpty else { return count("noOps") }
        switch candidates[pick % candidates.count] {
        case .post(let post): try await server.perform(.deletePost(id: post.id), as: post.authorId)
        case .message(let message): try await server.perform(.deleteMessage(id: message.id), as: message.userId)
        case .channel(let channel): try await server.deleteChannel(channel.id)
        default: break
        }
    }

    /// A message in a channel: its `lastActivityAt` moves it to the top of the list.
    func serverMove(pick: Int) async throws {
        let candidates = serverCandidates(of: .channel)
        guard !candidates.isEmpty else { return count("noOps") }
        let channel = candidates[pick % candidates.count].base.id
        let text = nextText("moving")
        try await server.perform(.sendText(text, channelId: channel, clientRequestId: "request-" + text), as: "bob")
    }

    /// A page request whose answer the server has served, but which reaches the client only
    /// after a newer server-side change and its event were applied: the page must not undo it.
    func eventDuringPage(growing: Bool, change: Int, pick: Int) async throws {
        // Delayed events first, in order: the change below is then the newest the client gets.
        if !held.isEmpty {
            count("eventsDelayed", held.count)
            for event in held { deliver(event, twice: false) }
            held = []
            try await settle()
        }
        api.holdNextAnswer()
        let fetching: Bool
        if growing {
            if subject.anchorAtEnd { collection.previousPage() } else { collection.nextPage() }
            fetching = model.grow()
        } else {
            collection.resetPage()
            model.firstPage(fetching: true)
            fetching = true
        }
        guard fetching else { return api.holdNextAnswer(false) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !api.hasHeldAnswer {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "the page request never reached the server: loading \(collection.loadingStatus()), \(api.waitingFetchCount) waiting, pages \(api.takePages().map { "\($0.cursor ?? "nil") failed=\($0.failed) \($0.records.count)" })")
            }
            _ = try await client.store.read { _ in 0 }
            if api.waitingFetchCount > 0 {
                _ = try await client.store.read { _ in 0 }
                api.releaseFetch()
                count("serverPages")
            }
        }
        switch change {
        case 0: try await serverInsert(user: pick % 3, matching: true)
        case 1 where subject == .channels && pick % 2 == 0: try await serverMove(pick: pick)
        case 1: try await serverUpdate(pick: pick)
        default: try await serverDelete(pick: pick)
        }
        let before = deliveredSequence
        try await absorbServerEvents(immediately: true)
        while client.lastEventSequence < deliveredSequence {
            guard ContinuousClock.now < deadline else { throw Failure(message: "the event during the page was never applied") }
            _ = try await client.store.read { _ in 0 }
        }
        for _ in 0 ..< 3 { _ = try await client.store.read { _ in 0 } }
        if deliveredSequence > before { count("eventsDuringPages.delivered") }
        api.releaseAnswer()
    }

    // MARK: Events

    /// Takes the server's new events (waiting until every write so far has arrived), keeps the
    /// server's rows, and delivers, duplicates, delays or (offline) drops each one.
    func absorbServerEvents(history: Bool = false, immediately: Bool = false) async throws {
        // Every write so far has published its events (the server's hub delivers them in order).
        await api.waitForIncoming(through: try await server.latestSequence())
        for event in api.takeIncoming() {
            switch event {
            case .created(let record, _), .updated(let record, _): serverRows[record.key] = record
            case .deleted(let key, _): serverRows[key] = nil
            case .connected, .disconnected: break
            }
            if history {
                continue
            } else if !api.isConnected {
                count("eventsDropped")
            } else if immediately {
                deliver(event, twice: false)
                switch event {
                case .created(let record, _), .updated(let record, _):
                    if let row = subject.row(record) { newerThanPage.insert(row.identity) }
                case .deleted(let key, _):
                    if key.kind == subject.kind { newerThanPage.insert(key.id) }
                case .connected, .disconnected: break
                }
            } else if !held.isEmpty || random.chance(25) {
                held.append(event)
            } else {
                deliver(event, twice: random.chance(15))
            }
        }
    }

    func deliver(_ event: SocialEvent, twice: Bool) {
        switch event {
        case .created(let record, _), .updated(let record, _): model.upsert(record)
        case .deleted(let key, _): model.remove(key)
        case .connected, .disconnected: break
        }
        api.deliver(event)
        count("eventsDelivered")
        if twice {
            api.deliver(event)
            count("eventsDuplicated")
        }
        deliveredSequence = max(deliveredSequence, event.sequence ?? 0)
    }

    /// The connection comes back: the client catches its cache up through the change log by
    /// itself. The reference reads the same log from the sequence the test delivered through (not
    /// the client's sync point), so it knows what the client must show once it has caught up.
    func reconnect() async throws {
        var since = deliveredSequence
        api.setConnected(true)
        // Once the client applied `.connected`, its catch-up runs (`settle()` waits for its end).
        try await waitForClient(connected: true)
        // No event applied yet: the client has no sync point, and documents that it does not
        // catch up (its lists stay as loaded until a page is read again).
        guard since > 0 else { return count("reconnectsWithoutSyncPoint") }
        while true {
            let log = try await api.base.changes(since: since, limit: 7, scope: .all)
            for key in log.deleted { model.remove(key) }
            for record in log.records { model.upsert(record) }
            count("changeLogRecords", log.records.count + log.deleted.count)
            // `settle()` waits until the client's sync point reaches it.
            deliveredSequence = max(deliveredSequence, log.latestSequence)
            since = log.latestSequence
            guard log.hasMore else { break }
        }
        count("catchUps")
    }

    /// What an app can still do while connected: read the change log from the client's sync
    /// point and apply it as events.
    func catchUp() async throws {
        var since = client.lastEventSequence
        while true {
            let log = try await api.changes(since: since, limit: 7)
            for key in log.deleted {
                model.remove(key)
                client.apply(.deleted(key, sequence: log.latestSequence))
            }
            for record in log.records {
                model.upsert(record)
                client.apply(.updated(record, sequence: log.latestSequence))
            }
            count("changeLogRecords", log.records.count + log.deleted.count)
            deliveredSequence = max(deliveredSequence, log.latestSequence)
            since = log.latestSequence
            guard log.hasMore else { break }
        }
    }
}
