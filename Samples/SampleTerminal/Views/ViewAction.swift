/// What a screen asks the app to do after handling a command.
public enum ViewAction: Sendable, Hashable {
    /// Nothing more: the screen did it.
    case done
    /// Open a channel's chat on top of this screen.
    case openChat(channelId: String)
    /// Open a post with its comments on top of this screen.
    case openPost(postId: String)
    /// Open a user's profile on top of this screen.
    case openProfile(userId: String)
    /// Tell the user something, in the notice line.
    case say(String)
}
