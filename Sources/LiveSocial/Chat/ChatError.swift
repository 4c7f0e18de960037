/// A misuse of the chat API, or a send that did not happen.
public enum ChatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The collection was disposed; it does nothing any more.
    case disposed
    /// ``MessageCollection/startCollection(initPolicy:cacheResultHandler:apiResultHandler:)`` was
    /// called a second time.
    case alreadyStarted
    /// The collection must be started before it pages.
    case notStarted
    /// A page load in the same direction is still running.
    case loadInProgress
    /// There is nothing more to load in that direction (`hasPrevious` or `hasNext` is false).
    case noMorePages
    /// Only a failed message can be resent; this one is not failed (or no longer stored).
    case notFailed(clientRequestId: String)
    /// The user canceled the message before it was sent.
    case canceled(clientRequestId: String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .disposed: "the collection is disposed"
        case .alreadyStarted: "the collection was already started"
        case .notStarted: "start the collection before paging"
        case .loadInProgress: "a page load in this direction is already running"
        case .noMorePages: "there are no more messages in this direction"
        case .notFailed(let id): "message \(id) is not a failed message"
        case .canceled(let id): "message \(id) was canceled before it was sent"
        }
    }
}
