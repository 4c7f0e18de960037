import LiveData
import SampleApp

/// The terminal app: reads commands, hands them to the screen shown or to the session, and
/// draws a ``Frame`` whenever a view reports a change.
///
/// The app owns the ``Navigator``, the session's view model and the notice line's; each screen
/// owns its view model. Drawing is coalesced: many changes in one turn of the main actor make one
/// frame.
///
/// No command waits for the server: ``execute(_:)`` is synchronous. Navigation happens at once
/// and the new screen loads behind it; a command that needs the server (a send, a page, a
/// reaction) starts its work through a view model and returns, and the screen shows the
/// progress and the outcome as the view model's data changes (pending then sent, loading then
/// fresh, an error in the notice line). So the input loop reads, echoes and runs the next
/// keystroke or command at once, whatever the server's latency.
@MainActor
public final class TerminalApp {
    /// The services the view models use.
    public let environment: SampleEnvironment
    /// The connection and the simulated world.
    public let session: SessionViewModel
    /// The screens.
    public let navigator = Navigator()
    /// The last frame drawn.
    public private(set) var lastFrame: Frame?
    /// The notice line's view model: the latest notice of the session, the screen shown, or a
    /// command, or the screen's error when it changes; each expires after a while.
    public let noticeLine: NoticeViewModel
    /// The notice line as drawn: the latest notice while it lasts, else the error of the screen
    /// shown (which lasts as long as the error does).
    public var notice: String {
        let latest = noticeLine.text.data ?? ""
        return latest.isEmpty ? navigator.top?.status.error ?? "" : latest
    }
    private let output: any ScreenOutput
    private let echoesCommands: Bool
    private var editor = LineEditor()
    /// The command the demo is "typing", shown in the input line.
    private var demoInput: String?
    /// The error of each screen last seen, so that a screen's error is shown when it changes.
    private var seenErrors: [ObjectIdentifier: String] = [:]
    private var isRenderScheduled = false
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    private var connectionObserver: Observer<String?>?
    private var noticeObserver: Observer<String>?
    private var noticeLineObserver: Observer<String?>?

    private struct Waiter {
        var condition: @MainActor (TerminalApp) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
        var timeout: Task<Void, Never>?
    }

    /// Creates the app over an environment and an output.
    ///
    /// - Parameters:
    ///   - environment: the services.
    ///   - output: where frames are drawn.
    ///   - echoesCommands: whether each command is printed before it runs (plain output).
    ///   - noticeLine: the notice line (by default, notices last ``NoticeViewModel/defaultLifetime``
    ///     of wall time; tests give one on a manual clock).
    public init(
        environment: SampleEnvironment, output: any ScreenOutput, echoesCommands: Bool, noticeLine: NoticeViewModel? = nil
    ) {
        self.environment = environment
        self.session = SessionViewModel(environment: environment)
        self.noticeLine = noticeLine ?? NoticeViewModel()
        self.output = output
        self.echoesCommands = echoesCommands
    }

    // MARK: Running

    /// Shows the channel list, which loads behind it; returns at once.
    public func start() {
        // Weakly: the navigator and the session are public, and may outlive the app.
        navigator.onChange = { [weak self] in self?.setNeedsDisplay() }
        navigator.onNotice = { [weak self] in self?.say($0) }
        connectionObserver = session.connection.observeForever { [weak self] _ in self?.setNeedsDisplay() }
        // The launch notice, sent before anyone observed, was kept for this first observer.
        noticeObserver = session.notices.observeForever { [weak self] in self?.say($0) }
        noticeLineObserver = noticeLine.text.observeForever { [weak self] _ in self?.setNeedsDisplay() }
        _ = execute(.channels)
    }

    /// Runs commands from `input` until the user quits or the input ends; then waits, briefly,
    /// until the messages just sent are stored (``areSendsStored``).
    public func run(_ input: AsyncStream<InputEvent>) async {
        for await event in input {
            let command: Command
            // The screen the user types on holds its rows' order until the command has run.
            let typedOn = navigator.top
            switch event {
            case .line(let line):
                command = Command(parsing: line)
            case .key(let key):
                guard let completed = editor.apply(key) else {
                    typedOn?.setTyping(!editor.text.isEmpty)
                    setNeedsDisplay()
                    continue
                }
                command = completed
            case .end:
                command = .quit
            }
            if case .line(let line) = event, echoesCommands { output.log("> \(line)") }
            setNeedsDisplay()
            let goesOn = execute(command)
            // Up and Down are commands even while the line holds text: the order stays held then.
            typedOn?.setTyping(!editor.text.isEmpty)
            guard goesOn else { break }
        }
        // A message typed just before `/quit` (or the end of a script) is in the outbox, but its
        // pending copy may not be on disk yet: a few milliseconds, never the server's answer.
        _ = await waitUntil(timeout: .seconds(2)) { $0.areSendsStored }
    }

    /// Whether every message sent from the chats open is stored in the cache (pending, or
    /// already sent): quitting now loses none of them.
    public var areSendsStored: Bool {
        navigator.views.allSatisfy { ($0 as? ChatView)?.viewModel.areSendsStored ?? true }
    }

    /// Plays `script`, one step after the other, each step waiting until its condition holds.
    ///
    /// - Parameters:
    ///   - script: the steps.
    ///   - pause: a pause before each step, so a person can follow (zero for none).
    ///   - bound: how long a step may take to reach its condition.
    /// - Returns: whether every step finished; the first that did not is noticed.
    public func play(_ script: [DemoStep], pause: Duration, bound: Duration = .seconds(15)) async -> Bool {
        for step in script {
            if pause > .zero { try? await Task.sleep(for: pause) }
            if echoesCommands { output.log("> \(step.command)") }
            demoInput = step.command
            render()
            if pause > .zero { try? await Task.sleep(for: pause / 2) }
            demoInput = nil
            guard execute(Command(parsing: step.command)) else { return true }
            guard await waitUntil(timeout: bound, step.until) else {
                output.log("demo: the step \"\(step.command)\" did not reach \"\(step.expectation)\" in time")
                return false
            }
        }
        return true
    }

    /// Leaves every screen, stops the services and restores the terminal.
    public func shutdown() {
        if let connectionObserver { session.connection.remove(observer: connectionObserver) }
        if let noticeObserver { session.notices.remove(observer: noticeObserver) }
        if let noticeLineObserver { noticeLine.text.remove(observer: noticeLineObserver) }
        navigator.closeAll()
        environment.shutdown()
        output.finish()
    }

    // MARK: Commands

    /// Runs one command and returns at once: it never waits for the server. A screen that needs
    /// loading is shown first and loads behind; work for the server is started, and its progress
    /// and outcome show in later frames.
    ///
    /// - Returns: false when the app should quit.
    public func execute(_ command: Command) -> Bool {
        switch command {
        case .quit:
            return false
        case .none:
            break
        case .help:
            navigator.toggleHelp()
        case .back:
            if !navigator.pop() { say("nothing to go back to: /quit quits") }
        case .channels:
            showChannels()
        case .feed(let community):
            navigator.select(.feed) { FeedView(viewModel: FeedViewModel(environment: environment)) }
            if let community { perform(navigator.top?.handle(.feed(community))) }
        case .profile(let userId):
            navigator.select(.profile) { ProfileView(viewModel: ProfileViewModel(userId: session.userId, environment: environment)) }
            if let userId, userId != session.userId { perform(.openProfile(userId: userId)) }
        case .offline:
            session.goOffline()
        case .online:
            session.goOnline()
        case .others(let times):
            session.othersAct(times: times)
        case .reply(let text):
            guard let chat = navigator.top as? ChatView else { return say("open a chat first: /reply answers there") }
            session.reply(text, in: chat.viewModel.channelId)
        case .flood(let count):
            guard let chat = navigator.top as? ChatView else { return say("open a chat first: /flood writes there") }
            session.flood(count, in: chat.viewModel.channelId)
        case .unknown(let text):
            say("unknown command \(text): ? shows the help")
        default:
            guard let top = navigator.top, let action = top.handle(command) else {
                return say(Self.refusal(of: command))
            }
            perform(action)
        }
        setNeedsDisplay()
        return true
    }

    private func showChannels() {
        var made: ChannelListView?
        navigator.select(.channels) {
            let view = ChannelListView(viewModel: ChannelListViewModel(environment: environment))
            made = view
            return view
        }
        made?.load()
    }

    private func perform(_ action: ViewAction?) {
        switch action {
        case nil, .done?:
            break
        case .say(let text)?:
            say(text)
        case .openChat(let channelId)?:
            let view = ChatView(viewModel: ChatViewModel(channelId: channelId, environment: environment))
            navigator.push(view)
            view.start()
        case .openPost(let postId)?:
            navigator.push(PostView(viewModel: PostViewModel(postId: postId, environment: environment)))
        case .openProfile(let userId)?:
            navigator.push(ProfileView(viewModel: ProfileViewModel(userId: userId, environment: environment)))
        }
    }

    @discardableResult
    private func say(_ text: String) -> Bool {
        noticeLine.show(text)
        return true
    }

    private static func refusal(of command: Command) -> String {
        switch command {
        case .say: "there is nothing to say here: open a chat (N), a feed or a post first"
        case .open: "there is nothing to open here"
        case .more, .newer: "there is nothing more here"
        case .resend, .discard: "open a chat to resend or discard its failed messages"
        case .react: "open a post to react to it"
        case .follow: "open somebody's profile to follow them"
        default: "that does not work here: ? shows the help"
        }
    }

    // MARK: Drawing

    /// Asks for a frame on the next turn of the main actor.
    public func setNeedsDisplay() {
        guard !isRenderScheduled else { return }
        isRenderScheduled = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            isRenderScheduled = false
            render()
        }
    }

    /// Draws a frame now, then wakes the waits whose condition holds.
    public func render() {
        let frame = makeFrame()
        if frame != lastFrame {
            lastFrame = frame
            output.show(frame)
        }
        for (id, waiter) in waiters where waiter.condition(self) {
            waiters[id] = nil
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    func makeFrame() -> Frame {
        let size = output.size
        let top = navigator.top
        if let top {
            let key = ObjectIdentifier(top)
            let current = top.status.error ?? ""
            if let previous = seenErrors[key], previous != current {
                // An error that no longer holds leaves the notice line at once.
                if !previous.isEmpty, noticeLine.text.data == previous { noticeLine.clear() }
            }
            if seenErrors[key] != current {
                seenErrors[key] = current
                // A new error shows at once, over an older notice; once the notice line expires,
                // the error shows for as long as it holds.
                if !current.isEmpty { noticeLine.show(current) }
            }
        }
        let tabs = Navigator.Tab.allCases.map { $0 == navigator.tab ? "[\($0.rawValue)]" : " \($0.rawValue) " }
        let header = " LiveData Sample · \(session.userId)   " + tabs.joined(separator: " ") + "   ? help"
        var status = "\(session.userId) · " + (session.connection.data ?? "")
        if let top {
            if top.status.isLoading { status += " · loading…" }
            if top.showsDataStatus { status += " · \(top.status.source.rawValue)" }
            if !top.hints.isEmpty { status += " │ \(top.hints)" }
        }
        return Frame(
            screen: top.map { "\(ObjectIdentifier($0).hashValue)" } ?? "",
            header: header, title: top?.title ?? "", body: top?.body(width: size.width, height: size.height - 5) ?? [],
            notice: notice, status: status, input: demoInput ?? editor.text)
    }

    /// Waits until `condition` holds after a frame, or `timeout` passes.
    ///
    /// - Returns: whether the condition held.
    public func waitUntil(timeout: Duration = .seconds(15), _ condition: @escaping @MainActor (TerminalApp) -> Bool) async -> Bool {
        render()
        if condition(self) { return true }
        let id = nextWaiter
        nextWaiter += 1
        return await withCheckedContinuation { continuation in
            let timer = Task { @MainActor [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                guard let self, let waiter = self.waiters.removeValue(forKey: id) else { return }
                waiter.continuation.resume(returning: false)
            }
            waiters[id] = Waiter(condition: condition, continuation: continuation, timeout: timer)
        }
    }
}
