import Foundation
import LiveData
import LiveSocial
import LiveSocialNetwork

/// The app-wide part of the status line: whether the app is online, and what the other users
/// just did; with the commands that drive the simulated world (go offline and back, make others act).
///
/// Going offline drops the embedded server's connection, as a lost network would: requests fail,
/// real-time events are missed, and the other users' writes pile up in the server's change log.
/// Coming back, the channel list and the open chat catch up from that log (or, when too much
/// was missed, the chat reloads).
///
/// Across machines the network decides: ``connection`` follows the transport's connection state
/// (connecting, reconnecting with a countdown to the next try, signed out), and the simulator
/// commands are refused with a notice that says why.
@MainActor
public final class SessionViewModel {
    private let environment: SampleEnvironment
    private let onlineData: MutableLiveData<Bool>
    private let connectionData: MutableLiveData<String>
    /// Counts down to the next reconnection try, once a second, while the network transport waits;
    /// it ends with the wait, or with the view model.
    private var countdown: Task<Void, Never>?
    /// Kept while nobody observes: the launch notice is sent before the app starts observing.
    private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)

    /// Whether the app is connected to the server.
    public var isOnline: LiveData<Bool> { onlineData }
    /// The connection for the status line: "● online", "○ offline", or across machines
    /// "◌ connecting", "◌ reconnecting in 3 s" and "✕ signed out (why)".
    public var connection: LiveData<String> { connectionData }
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
        let online = environment.server?.isConnected ?? environment.network?.currentConnectionState.isConnected ?? false
        onlineData = MutableLiveData(data: online)
        connectionData = MutableLiveData(data: Self.summary(online: online))
        let problems = environment.readMarkers.problem
        let startup = [environment.launchNotice, problems.data].compactMap { $0 }
        if !startup.isEmpty { noticeEvents.send(startup.joined(separator: "; ")) }
        // Owned by this view model, held weakly: the observation ends with it.
        problems.observe(owner: self) { [unowned self] problem in
            if let problem { noticeEvents.send(problem) }
        }
        if let network = environment.network {
            network.connectionState.observe(owner: self) { [unowned self] state in
                if let state { show(state) }
            }
            network.connectionState.dispatch()
        }
    }

    /// The embedded server's connection in words.
    private static func summary(online: Bool) -> String { online ? "● online" : "○ offline" }

    /// Shows the network transport's state, counting down to the next try while reconnecting.
    private func show(_ state: ConnectionState) {
        countdown?.cancel()
        countdown = nil
        onlineData.data = state.isConnected
        connectionData.data = Self.summary(of: state, now: Date())
        switch state {
        case .reconnecting(_, let nextTry):
            countdown = Task { [weak self] in
                while !Task.isCancelled, Date() < nextTry {
                    try? await Task.sleep(for: .seconds(1))
                    guard let self, !Task.isCancelled else { return }
                    self.connectionData.data = Self.summary(of: state, now: Date())
                }
            }
        case .signedOut(let reason):
            noticeEvents.send("signed out: \(reason); quit and sign in again")
        default:
            break
        }
    }

    /// The network transport's state in words.
    private static func summary(of state: ConnectionState, now: Date) -> String {
        switch state {
        case .connected: "● online"
        case .connecting, .reconnecting: "◌ \(state.summary(now: now))"
        case .signedOut: "✕ signed out"
        }
    }

    /// The refusal of a simulator command across machines, as a notice.
    private func refuseAcrossMachines(_ what: String) {
        noticeEvents.send("\(what) works with the embedded server only: across machines the other users are real people")
    }

    /// Drops the connection.
    public func goOffline() {
        guard let server = environment.server else { return refuseAcrossMachines("/offline") }
        guard onlineData.data == true else { return }
        server.disconnect()
        onlineData.data = false
        connectionData.data = Self.summary(online: false)
        noticeEvents.send("offline: others keep writing; their changes wait in the server's change log")
    }

    /// Restores the connection; the open screens catch up by themselves.
    public func goOnline() {
        guard let server = environment.server else { return refuseAcrossMachines("/online") }
        guard onlineData.data == false else { return }
        server.reconnect()
        onlineData.data = true
        connectionData.data = Self.summary(online: true)
        noticeEvents.send("online: catching up with the change log")
    }

    /// Makes the other users take `times` random actions now; returns at once, and tells what
    /// they did in a notice.
    ///
    /// - Returns: the task doing it (for tests; the app does not wait).
    @discardableResult
    public func othersAct(times: Int = 1) -> Task<Void, Never> {
        guard let others = environment.others else {
            refuseAcrossMachines("/others")
            return Task {}
        }
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
        guard let others = environment.others else {
            refuseAcrossMachines("/reply")
            return Task {}
        }
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
        guard let others = environment.others else {
            refuseAcrossMachines("/flood")
            return Task {}
        }
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
