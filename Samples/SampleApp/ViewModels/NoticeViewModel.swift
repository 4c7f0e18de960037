import LiveData

/// The notice line: the latest passing news (a notice of the session or of a screen, what a
/// command did, a screen's new error), shown for a while, then gone.
///
/// Each notice lives for ``lifetime`` of the clock's time; a newer one replaces it and lives its
/// own full lifetime. The clock is the caller's: the app's runs on wall time (a
/// `ContinuousClock`), a test's moves only when the test advances it (a `ManualClock`), so that
/// expiry is deterministic.
///
/// Lasting state does not belong here: a screen's error stays in its `status` for as long as it
/// holds, and the app shows it again once the notice that covered it expires.
@MainActor
public final class NoticeViewModel {
    /// How long a notice shows by default: long enough to read a line twice.
    public static let defaultLifetime: Duration = .seconds(8)

    /// How long each notice shows.
    public let lifetime: Duration
    private let clock: any Clock<Duration>
    private let textData = MutableLiveData(data: "")
    private var expiry: Task<Void, Never>?
    /// Counts the notices shown, so that the expiry of one replaced meanwhile clears nothing.
    private var generation = 0

    /// The notice shown; empty when there is none.
    public var text: LiveData<String> { textData }

    /// Creates an empty notice line.
    ///
    /// - Parameters:
    ///   - lifetime: how long each notice shows.
    ///   - clock: the clock that lifetime is measured on.
    public init(lifetime: Duration = defaultLifetime, clock: any Clock<Duration> = ContinuousClock()) {
        self.lifetime = lifetime
        self.clock = clock
    }

    /// Shows `notice` in place of the one shown, for ``lifetime``; an empty one clears the line.
    public func show(_ notice: String) {
        expiry?.cancel()
        expiry = nil
        generation += 1
        if textData.data != notice { textData.data = notice }
        guard !notice.isEmpty else { return }
        let shown = generation
        let clock = self.clock
        let lifetime = self.lifetime
        expiry = Task { [weak self] in
            guard (try? await clock.sleep(for: lifetime)) != nil, let self, generation == shown else { return }
            expiry = nil
            textData.data = ""
        }
    }

    /// Clears the line now.
    public func clear() {
        show("")
    }
}
