import LiveSocial

extension EmbeddedServer {
    /// Adds a user to a channel as a member (an administrator's action): the way into a private
    /// channel, which nobody joins by id (see <doc:Authorization>).
    ///
    /// It is a real write, with change-log entries and real-time events; from then on the user
    /// sees the channel, its members and its messages. Adding a member again changes nothing.
    ///
    /// - Returns: the membership.
    /// - Throws: `SocialAPIError.notFound(_:)` when the channel or the user does not exist;
    ///   `SocialAPIError.rejected(_:)` when the user is banned from it or it is deleted.
    @discardableResult
    public func addMember(_ userId: String, toChannel channelId: String) throws -> ChannelMember {
        let result = try write { writer in
            _ = try engine.require(User.self, userId)
            try engine.joinChannel(channelId, as: userId, role: .member, in: &writer)
        }
        guard let member = result.first(ChannelMember.self) else { preconditionFailure("an added member is in the answer") }
        return member
    }
}
