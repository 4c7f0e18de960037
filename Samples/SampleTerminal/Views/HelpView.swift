/// The help: every key and command, over the screen it was opened from.
@MainActor
public final class HelpView: ScreenView {
    /// The help's lines.
    public static let lines = [
        "Screens     /channels (/c)   /feed [community] (/f)   /profile [user] (/p)",
        "            N or /open N: open row N     /back (/b, Esc): leave the screen",
        "Lists       /more (/m, PgUp, ↑): older rows     /newer (/n, PgDn, ↓): newer",
        "Chat        type and Enter: send    /resend: resend failed   /discard: drop them",
        "Feed, post  type and Enter: post or comment     /react [name]: like or take back",
        "Profile     /follow: follow or unfollow",
        "Network     /offline: drop the connection     /online: restore it (catch-up)",
        "Others      /others [N]: N random actions   /reply [text]: someone answers here",
        "            /flood [N]: N messages here at once (offline: a huge gap)",
        "App         ? or /help: this help (Esc or ? closes it)    /quit (/q, Ctrl-C)",
        "",
        "The status line shows the connection, whether the screen is loading, and",
        "whether its data is local (from the cache) or fresh (from the server).",
    ]

    override public var title: String { "Help" }
    override public var hints: String { "? or Esc to close" }
    override public var showsDataStatus: Bool { false }

    override public func body(width: Int, height: Int) -> [String] {
        Array(Self.lines.map { TextLayout.fit($0, width: width) }.prefix(height))
    }
}
