import Foundation

/// Where the network transport's real-time connection stands, as a status line shows it.
///
/// ``NetworkSocialAPI/connectionState`` holds it as `LiveData`, so a view model binds to it.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Opening the event stream for the first time.
    case connecting
    /// The event stream is open; changes arrive as they happen.
    case connected
    /// The stream dropped; the next try, number `attempt` since it was last connected, starts at `nextTry`.
    case reconnecting(attempt: Int, nextTry: Date)
    /// The session ended: signed out by the user, or its renewal refused. Sign in again.
    case signedOut(reason: String)

    /// Whether the event stream is open.
    public var isConnected: Bool { self == .connected }

    /// A short text for a status line; for reconnecting, the whole seconds until the next try as of `now`.
    public func summary(now: Date = Date()) -> String {
        switch self {
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .reconnecting(_, let nextTry):
            let seconds = Int(max(0, nextTry.timeIntervalSince(now)).rounded(.up))
            return seconds > 0 ? "reconnecting in \(seconds) s" : "reconnecting"
        case .signedOut(let reason): return "signed out (\(reason))"
        }
    }

    /// The state, such as `reconnecting(attempt: 2)`.
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .reconnecting(let attempt, let nextTry): "reconnecting(attempt: \(attempt), nextTry: \(nextTry.timeIntervalSince1970))"
        case .signedOut(let reason): "signedOut(\(reason))"
        }
    }
}
