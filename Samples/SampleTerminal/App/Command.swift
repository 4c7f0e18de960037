import Foundation

/// A command typed by the user, or played by the demo.
///
/// Commands start with a slash; a bare number opens that row; any other text is said on the
/// screen shown (a message in a chat, a post in a feed, a comment under a post).
public enum Command: Sendable, Hashable {
    /// Show or hide the help.
    case help
    /// Quit the app.
    case quit
    /// Leave the screen shown.
    case back
    /// Show the channel list.
    case channels
    /// Show a community's feed (the shown one, or the first, when nil).
    case feed(String?)
    /// Show a user's profile (the signed-in user's when nil).
    case profile(String?)
    /// Open the row with this number (from 1), or the item with this id.
    case open(String)
    /// Load or show more: older messages, more posts, comments or channels.
    case more
    /// Scroll toward newer rows.
    case newer
    /// Send the failed messages again.
    case resend
    /// Remove the failed messages.
    case discard
    /// Add or take back a reaction to the post shown.
    case react(String)
    /// Follow or unfollow the user shown.
    case follow
    /// Drop the connection.
    case offline
    /// Restore the connection.
    case online
    /// Make the other users take this many random actions.
    case others(Int)
    /// Make another member of the open channel reply (with this text, or a stock reply).
    case reply(String?)
    /// Make the other members of the open channel send this many messages at once.
    case flood(Int)
    /// Say this text on the screen shown.
    case say(String)
    /// Nothing (an empty line).
    case none
    /// A slash command that does not exist.
    case unknown(String)

    /// Reads a command from a line of input.
    public init(parsing line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            self = .none
            return
        }
        if trimmed == "?" {
            self = .help
            return
        }
        if Int(trimmed) != nil {
            self = .open(trimmed)
            return
        }
        guard trimmed.hasPrefix("/") else {
            self = .say(trimmed)
            return
        }
        let parts = trimmed.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts.first?.lowercased() ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        let number = argument.flatMap { Int($0) }
        switch name {
        case "help", "h", "?": self = .help
        case "quit", "q", "exit": self = .quit
        case "back", "b": self = .back
        case "channels", "c": self = .channels
        case "feed", "f": self = .feed(argument)
        case "profile", "p": self = .profile(argument)
        case "open", "o": self = argument.map(Command.open) ?? .unknown(trimmed)
        case "more", "m": self = .more
        case "newer", "n": self = .newer
        case "resend": self = .resend
        case "discard": self = .discard
        case "react", "r": self = .react(argument ?? "like")
        case "follow": self = .follow
        case "offline": self = .offline
        case "online": self = .online
        case "others": self = .others(max(1, number ?? 1))
        case "reply": self = .reply(argument)
        case "flood": self = .flood(max(1, number ?? 400))
        default: self = .unknown(trimmed)
        }
    }
}
