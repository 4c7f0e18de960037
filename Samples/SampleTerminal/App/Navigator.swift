/// The screens: three tabs (channels, feed, profile), each a stack of views, and the help over them.
///
/// The navigator drives every view's lifecycle: the view on top is `resumed`; a view under it,
/// or on another tab, is `created` (stopped: its observers wait, and catch up with the latest
/// values when it is shown again); a view left with ``pop()`` or ``closeAll()`` is closed and
/// `destroyed`, which removes its observers for good.
@MainActor
public final class Navigator {
    /// The tabs, in the order of the top bar.
    public enum Tab: String, CaseIterable, Sendable {
        /// The channel list, and the chats opened from it.
        case channels = "Channels"
        /// A community's feed, and the posts opened from it.
        case feed = "Feed"
        /// The user's profile, and the profiles opened from it.
        case profile = "Profile"
    }

    /// The tab shown.
    public private(set) var tab: Tab = .channels
    private var stacks: [Tab: [ScreenView]] = [:]
    private var help: HelpView?
    /// Called when any view alive reports a change; given to each view as it arrives.
    public var onChange: () -> Void = {}
    /// Called with each notice of a view on screen; given to each view as it arrives.
    public var onNotice: (String) -> Void = { _ in }

    /// Creates a navigator with no screens.
    public init() {}

    /// The view on screen: the help if open, else the top of the shown tab.
    public var top: ScreenView? { help ?? stacks[tab]?.last }

    /// The root view of a tab, if it was made.
    public func root(of tab: Tab) -> ScreenView? { stacks[tab]?.first }

    /// Every view alive, for tests.
    public var views: [ScreenView] { Tab.allCases.flatMap { stacks[$0] ?? [] } + (help.map { [$0] } ?? []) }

    /// Shows `tab`, making its root view with `makeRoot` the first time.
    public func select(_ tab: Tab, makeRoot: () -> ScreenView) {
        change {
            help = nil
            self.tab = tab
            if stacks[tab]?.isEmpty ?? true { stacks[tab] = [makeRoot()] }
        }
    }

    /// Shows `view` on top of the shown tab.
    public func push(_ view: ScreenView) {
        change {
            help = nil
            stacks[tab, default: []].append(view)
        }
    }

    /// Leaves the view on screen: closes the help, or the top of the tab (never its root).
    ///
    /// - Returns: false when there was nothing to leave.
    @discardableResult
    public func pop() -> Bool {
        if help != nil {
            change { help = nil }
            return true
        }
        guard let stack = stacks[tab], stack.count > 1 else { return false }
        change { stacks[tab]?.removeLast() }
        return true
    }

    /// Opens the help over the screen, or closes it.
    public func toggleHelp() {
        change { help = help == nil ? HelpView() : nil }
    }

    /// Leaves every view.
    public func closeAll() {
        change {
            help = nil
            stacks = [:]
        }
    }

    /// Applies a change and moves lifecycles: views no longer alive are destroyed, the view
    /// leaving the screen is stopped, the one arriving is resumed.
    private func change(_ body: () -> Void) {
        let before = views
        let oldTop = top
        body()
        let alive = views
        for view in alive where !before.contains(where: { $0 === view }) {
            view.onChange = { [weak self] in self?.onChange() }
            view.onNotice = { [weak self] in self?.onNotice($0) }
        }
        for view in before where !alive.contains(where: { $0 === view }) {
            view.close()
            view.lifecycle.state = .destroyed
        }
        let newTop = top
        if let oldTop, oldTop !== newTop, oldTop.lifecycle.state != .destroyed { oldTop.lifecycle.state = .created }
        newTop?.lifecycle.state = .resumed
    }
}
