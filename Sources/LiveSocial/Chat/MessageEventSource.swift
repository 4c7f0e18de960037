/// Where a change a message or channel collection reports came from.
public enum MessageEventSource: String, Sendable, Hashable, CaseIterable {
    /// The local cache. Cached results go to the handlers of a start or a page; delegate calls
    /// carry this source for changes that reached the cache file another way than through this
    /// client: another client on the same file (an app extension sharing it, another process).
    case cache
    /// The server's answer to a request: a page, or the answer to an edit or a delete.
    case api
    /// A real-time event from the server while connected.
    case event
    /// The change log, read to catch up after the connection came back.
    case changelog
    /// The signed-in user's own action on this device: sending (pending, failed, sent), resending,
    /// canceling, removing failed messages, or the local step of an edit.
    case local
}
