import LiveRepository

/// What a screen's status line shows: whether a request is under way, where the data on screen
/// comes from, and the last error.
///
/// It is state, kept until it changes; passing news (a catch-up, a message that was not sent)
/// goes out as one-shot notices, through each view model's `notices` event.
public struct ScreenStatus: Sendable, Hashable {
    /// Where the data on screen comes from.
    public enum Source: String, Sendable, Hashable {
        /// Nothing is shown yet.
        case nothing = "nothing yet"
        /// Cached data, not yet confirmed by the server.
        case local
        /// Data confirmed by the server, kept current since.
        case fresh
    }

    /// Whether a request to the server is under way.
    public var isLoading: Bool
    /// Where the data on screen comes from.
    public var source: Source
    /// The last error, in words; nil once things work again.
    public var error: String?

    /// Creates a status.
    public init(isLoading: Bool = false, source: Source = .nothing, error: String? = nil) {
        self.isLoading = isLoading
        self.source = source
        self.error = error
    }

    /// The status of a live object or collection: its loading status, data status and error.
    public init(loading: LoadingStatus, data: DataStatus, error: (any Error)?) {
        self.isLoading = loading == .loading
        switch data {
        case .fresh: source = .fresh
        case .local: source = .local
        case .notExist, .error: source = .nothing
        }
        self.error = error.map(Self.describe)
    }

    /// An error in the words the status line uses.
    public static func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    /// Runs a user's action; returns why it failed, as "`action`: the error", or nil when it did not.
    @MainActor
    static func failure(of action: String, _ body: @MainActor () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return "\(action): \(describe(error))"
        }
    }
}
