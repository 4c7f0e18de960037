import LiveData
import LiveSocial

/// The app-wide part of the status line: whether the app is online, and what the other users
/// just did; with the commands that drive the simulated world (go offline and back, make others act).
///
/// Going offline drops the embedded server's connection, as a lost network would: requests fail,
/// real-time events are missed, and the other users' writes pile up in the server's change log.
/// Coming back, the channel list and the open chat catch up from that log (or, when too much
/// was missed, the chat reloads).
@MainActor
public final class SessionViewModel {
    private let environment: SampleEnvironment
    private let onlineData: MutableLiveData<Bool>
    /// Kept while nobody observes: the launch notice is sent before the app starts observing.
    private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)

    /// Whether the app is connected to the server.
    public var isOnline: LiveData<Bool> { onlineData }
    /// Session-wide notices, each delivered once: the connection changed, others acted, or a
    /// problem (such as read markers that could not be read or saved). Those sent while nobody
    /// observes go to the first observer.
    public var notices: LiveEvent<String> { noticeEvents }
    /// The signed-in user's id.
    public var userId: String { environment.userId }

    /// Creates the view model; its first notice is the environment's launch notice and the read
    /// markers' problem, if any, and every new problem of the read markers is a notice too.
    public init(environment: SampleEnvironment) {
        self.environment = environment
        onlineData = MutableLiveData(data: environment.server.isConnected)
        let problems = environment.readMarkers.problem
        let startup = [environment.launchNotice, problems.data].compactMap { $0 }
        if !startup.isEmpty { noticeEvents.send(startup.joined(separator: "; ")) }
        // Owned by this view model, held weakly: the observation ends with it.
        problems.observe(owner: self) { [unowned self] problem in
            if let problem { noticeEvents.send(problem) }
        }
    }

    /// Drops the connection.
    public func goOffline() {
        guard onlineData.data == true else { return }
        environment.server.disconnect()
        onlineData.data = false
        noticeEvents.send("offline: others keep writing; their changes wait in the server's change log")
    }

    /// Restores the connection; the open screens catch up by themselves.
    public func goOnline() {
        guard onlineData.data == false else { return }
        environment.server.reconnect()
        onlineData.data = true
        noticeEvents.send("online: catching up with the change log")
    }

    /// Makes the other users take `times` random actions now; returns at once, and tells what
    /// they did in a notice.
    ///
    /// - Returns: the task doing it (for tests; the app does not wait).
    @discardableResult
    public func othersAct(times: Int = 1) -> Task<Void, Never> {
        let others = environment.others
        return Task { [noticeEvents] in
            do {
                let done = try await others.act(times: times)
                noticeEvents.send(done.count == 1 ? done[0] : "others took \(done.count) actions")
            } catch {
                noticeEvents.send("others could not act: \(ScreenStatus.describe(error))")
            }
        }
    }

    /// Makes another member of `channelId` say `text` (a stock reply when nil); returns at once,
    /// and tells who replied in a notice.
    ///
    /// - Returns: the task doing it (for tests; the app does not wait).
    @discardableResult
    public func reply(_ text: String?, in channelId: String) -> Task<Void, Never> {
        let others = environment.others
        return Task { [noticeEvents] in
            do {
                let speaker = try await others.reply(text, in: channelId)
                noticeEvents.send("\(speaker) replied in #\(channelId)")
            } catch {
                noticeEvents.send("nobody could reply: \(ScreenStatus.describe(error))")
            }
        }
    }

    /// Makes the other members of `channelId` send `count` messages at once; returns at once,
    /// and tells when they are sent in a notice.
    ///
    /// - Returns: the task doing it (for tests; the app does not wait).
    @discardableResult
    public func flood(_ count: Int, in channelId: String) -> Task<Void, Never> {
        let others = environment.others
        return Task { [noticeEvents] in
            do {
                try await others.flood(count, in: channelId)
                noticeEvents.send("others sent \(count) messages in #\(channelId)")
            } catch {
                noticeEvents.send("the flood stopped: \(ScreenStatus.describe(error))")
            }
        }
    }
}
