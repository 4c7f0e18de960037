import Foundation
import LiveSocial
import LiveSocialServer

/// The other users of the embedded server: their background activity, and the simulator
/// commands that make them act now (`/others`, `/reply`, `/flood`).
///
/// They act directly on the server, as a real backend's other clients would: the signed-in
/// client hears about it through real-time events, or through the change log when it was offline.
@MainActor
public final class OtherUsers {
    /// The server they act on.
    public let server: EmbeddedServer
    /// The signed-in user, who is never one of them.
    public let userId: String
    /// Their random background activity.
    public let activity: SimulatedActivity
    /// The users whose apps run on the same data folder now; `/reply` and `/flood` never speak
    /// as them, since they speak for themselves. None for an environment made from parts.
    var signedInUsers: @MainActor () -> Set<String> = { [] }
    private var replyCount = 0
    private static let replies = [
        "Sounds good to me!", "Ha, I was just thinking the same.", "Can you say more?",
        "On it.", "Agreed 👍", "Let's talk about it tomorrow.",
    ]

    init(server: EmbeddedServer, userId: String, activity: SimulatedActivity) {
        self.server = server
        self.userId = userId
        self.activity = activity
    }

    /// Makes the other users take `times` random actions now, and describes each one.
    ///
    /// - Throws: `SocialAPIError` when the server refuses an action.
    @discardableResult
    public func act(times: Int) async throws -> [String] {
        var done: [String] = []
        for _ in 0..<max(0, times) {
            guard let (actor, mutation) = try await activity.step() else { break }
            done.append(Self.describe(mutation, by: actor))
        }
        return done
    }

    /// One turn of the background activity when the users in `signedIn` have their apps open on
    /// the data folder: one random action by another user, described, or nil when this app is not
    /// the one that acts.
    ///
    /// Only the app of the first signed-in user (by id) acts, so that several apps on one folder
    /// do not multiply the activity, and never as a signed-in user, so that nobody sees
    /// themselves say what they did not type. Nil too when everyone is signed in.
    ///
    /// Each call draws from a new generator seeded with `seed`, so give it a different seed each
    /// time (the app adds the server's latest sequence number).
    ///
    /// - Throws: `SocialAPIError` when the server refuses the action.
    public func actInBackground(signedIn: Set<String>, seed: UInt64) async throws -> String? {
        guard signedIn.union([userId]).min() == userId else { return nil }
        let actors = (await activity.userIds ?? EmbeddedServer.demoUserIds).filter { !signedIn.contains($0) && $0 != userId }
        guard !actors.isEmpty else { return nil }
        let once = SimulatedActivity(server: server, seed: seed, interval: await activity.interval, userIds: actors)
        guard let (actor, mutation) = try await once.step() else { return nil }
        return Self.describe(mutation, by: actor)
    }

    /// Makes another member of a channel say `text` there (a stock reply when nil), and returns
    /// who spoke: never a user signed in on the data folder.
    ///
    /// - Throws: `SocialAPIError.invalidRequest` when nobody else is a member of the channel, or
    ///   all the others are signed in, or the server's refusal.
    @discardableResult
    public func reply(_ text: String? = nil, in channelId: String) async throws -> String {
        let speaker = try await members(of: channelId)[0]
        let words = text ?? Self.replies[replyCount % Self.replies.count]
        replyCount += 1
        try await server.perform(.sendText(words, channelId: channelId, clientRequestId: Self.requestID()), as: speaker)
        return speaker
    }

    /// Makes the other members of a channel (not those signed in on the data folder) send
    /// `count` messages there at once: sent while the user is offline, enough of them cause the
    /// chat's huge-gap reset.
    public func flood(_ count: Int, in channelId: String) async throws {
        let speakers = try await members(of: channelId)
        for number in 0..<max(0, count) {
            let speaker = speakers[number % speakers.count]
            let text = "Message \(number + 1) of \(count) while you were away"
            try await server.perform(.sendText(text, channelId: channelId, clientRequestId: Self.requestID()), as: speaker)
        }
    }

    /// The members of a channel other than the signed-in user and the users signed in on the
    /// data folder, sorted; never empty.
    private func members(of channelId: String) async throws -> [String] {
        let others = try await server.records(.channelMembers(channelId: channelId))
            .map(\.userId).filter { $0 != userId }.sorted()
        guard !others.isEmpty else {
            throw SocialAPIError.invalidRequest("nobody else is a member of \(channelId)")
        }
        let signedIn = signedInUsers()
        let members = others.filter { !signedIn.contains($0) }
        guard !members.isEmpty else {
            throw SocialAPIError.invalidRequest(
                "the other members of \(channelId) are signed in on this data folder and speak for themselves")
        }
        return members
    }

    private static func requestID() -> String { "sample-\(UUID().uuidString.lowercased())" }

    /// A mutation in a few words, as the status line shows it.
    static func describe(_ mutation: SocialMutation, by actor: String) -> String {
        switch mutation {
        case .sendMessage(let channelId, _, _, _, _, _): "\(actor) wrote in #\(channelId)"
        case .createPost(_, let targetId, _): "\(actor) posted in \(targetId)"
        case .createComment: "\(actor) commented on a post"
        case .addReaction(_, _, let name): "\(actor) reacted \(name)"
        case .removeReaction: "\(actor) took back a reaction"
        case .follow(let other): "\(actor) followed \(other)"
        case .unfollow(let other): "\(actor) unfollowed \(other)"
        default: "\(actor) updated something"
        }
    }
}
