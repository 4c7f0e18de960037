import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// The client-side writes of a collection model sequence: local mutations through the
/// repositories, and the writes of a second client over the same cache file.
extension CollectionModelRun {
    // MARK: Local mutations

    func local(_ mutation: CollectionStep.Mutation, pick: Int, refusal: SocialAPIError?) async throws {
        if let refusal { api.failNextPerform(refusal) }
        defer { api.failNextPerform(nil) }
        // Refused by the test, offline, or by the server for its own reason (the client showed a
        // row the server had deleted, its event still delayed): the documented failure path.
        var refused = false
        switch subject {
        case .feed:
            let mine = windowRecords().compactMap { record -> Post? in
                if case .post(let post) = record, post.authorId == "ada", post.syncState == .synced { post } else { nil }
            }
            if mutation == .create || mine.isEmpty {
                let text = nextText("mine")
                let stamp = stamps.upcoming
                do {
                    try await client.posts.create(text: text, in: .community, targetId: CollectionSubject.community)
                } catch {
                    refused = true
                }
                let identity = "local:" + text
                if refused {
                    model.upsert(.post(Post(id: "local-model", authorId: "ada", targetType: .community,
                                            targetId: CollectionSubject.community, text: text, createdAt: stamp,
                                            updatedAt: stamp, syncState: .error)))
                } else {
                    for result in api.takeResults() { model.apply(result, replacingLocal: identity) }
                }
                return
            }
            var post = mine[pick % mine.count]
            do {
                if mutation == .update {
                    let text = nextText("mine-edited")
                    post.text = text
                    try await client.posts.update(mine[pick % mine.count], text: text)
                } else {
                    post.isDeleted = true
                    try await client.posts.delete(mine[pick % mine.count])
                }
            } catch {
                refused = true
            }
            post.syncState = .error
            refused ? model.upsert(.post(post)) : applyResults()
        case .chat:
            let mine = windowRecords().compactMap { record -> Message? in
                if case .message(let message) = record, message.userId == "ada", message.syncState == .synced { message } else { nil }
            }
            guard !mine.isEmpty else { return count("noOps") }
            var message = mine[pick % mine.count]
            do {
                if mutation == .delete {
                    message.isDeleted = true
                    try await client.messages.delete(mine[pick % mine.count])
                } else {
                    let text = nextText("mine-edited")
                    message.text = text
                    try await client.messages.edit(mine[pick % mine.count], text: text)
                }
            } catch {
                refused = true
            }
            message.syncState = .error
            refused ? model.upsert(.message(message)) : applyResults()
        case .channels:
            // Joining or leaving changes the channel's member count (a membership has the sync state).
            let candidates = serverCandidates(of: .channel)
            guard !candidates.isEmpty else { return count("noOps") }
            let channel = candidates[pick % candidates.count].base.id
            do {
                if mutation == .delete {
                    try await client.channels.leave(channel)
                } else {
                    try await client.channels.join(channel)
                }
            } catch {
                refused = true
            }
            if !refused { applyResults() }
        }
    }

    func applyResults() {
        for result in api.takeResults() { model.apply(result) }
    }

    /// The records the collection shows now, as the app would take them to edit.
    func windowRecords() -> [SocialRecord] {
        (0 ..< collection.count()).compactMap { collection.record($0) }
    }

    // MARK: The cache's other writer

    func externalWrite(_ mutation: CollectionStep.Mutation, pick: Int) async throws {
        guard let other, let otherAPI else { return }
        let mine = serverCandidates().filter { record in
            switch record {
            case .post(let post): post.authorId == "ada" && post.targetId == CollectionSubject.community
            case .message(let message): message.userId == "ada" && message.channelId == CollectionSubject.channel
            default: true
            }
        }
        var localIdentity: String?
        switch (subject, mutation) {
        case (.feed, let mutation) where mutation == .create || mine.isEmpty:
            let text = nextText("other-device")
            localIdentity = "local:" + text
            try await other.posts.create(text: text, in: .community, targetId: CollectionSubject.community)
        case (.feed, let mutation):
            guard case .post(let post) = mine[pick % mine.count] else { return }
            if mutation == .update {
                try await other.posts.update(post, text: nextText("other-edited"))
            } else {
                try await other.posts.delete(post)
            }
        case (.chat, _) where mine.isEmpty:
            return count("noOps")
        case (.chat, let mutation):
            guard case .message(let message) = mine[pick % mine.count] else { return }
            if mutation == .delete {
                try await other.messages.delete(message)
            } else {
                try await other.messages.edit(message, text: nextText("other-edited"))
            }
        case (.channels, let mutation):
            guard !mine.isEmpty else { return count("noOps") }
            let channel = mine[pick % mine.count].base.id
            // Leaving a channel ada is not in is refused: the write is then only undone locally.
            if mutation == .delete { try? await other.channels.leave(channel) } else { try? await other.channels.join(channel) }
        }
        for result in otherAPI.takeResults() { model.apply(result, replacingLocal: localIdentity) }
        await client.store.checkForExternalChanges()
        count("crossProcessWrites")
    }
}
