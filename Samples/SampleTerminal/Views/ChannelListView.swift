import SampleApp

/// The channel list: a numbered row per channel with its unread count and newest message.
@MainActor
public final class ChannelListView: ScreenView {
    /// The view model drawn.
    public let viewModel: ChannelListViewModel
    private var rows: [ChannelRow] = []
    private var hasMore = false
    /// While the user types, the rows keep the places they had (see ``HeldOrder``).
    private var order = HeldOrder()
    /// The rows as the screen shows and numbers them.
    private var shown: [ChannelRow] { order.arrange(rows, id: \.id) }

    /// Creates the view and starts observing `viewModel`.
    public init(viewModel: ChannelListViewModel) {
        self.viewModel = viewModel
        super.init()
        bind(viewModel.rows) { [unowned self] in rows = $0 ?? [] }
        bind(viewModel.hasMore) { [unowned self] in hasMore = $0 ?? false }
        bindStatus(viewModel.status)
        bindNotices(viewModel.notices)
    }

    override public var title: String { "Channels" }
    override public var hints: String { "N open · /more" }

    override public func body(width: Int, height: Int) -> [String] {
        if rows.isEmpty { return [status.isLoading ? "  loading channels…" : "  no channels"] }
        var lines = shown.enumerated().map { index, row in
            let unread = row.unreadCount > 0 ? "(\(row.unreadCount))" : ""
            let head = "\(String(index + 1).leftPadded(to: 2)). \(TextLayout.pad(row.name, width: 14)) \(TextLayout.pad(unread, width: 5)) "
            return head + TextLayout.fit(row.lastMessage ?? "", width: width - TextLayout.columns(head))
        }
        if hasMore { lines.append("    … /more for more channels") }
        return Array(lines.prefix(height))
    }

    override public func handle(_ command: Command) -> ViewAction? {
        switch command {
        case .open(let key):
            guard let id = id(opening: key, in: shown) else { return .say("there is no channel \(key)") }
            return .openChat(channelId: id)
        case .more:
            viewModel.loadMore()
            return .done
        default:
            return nil
        }
    }

    override public func typingChanged() {
        if isTyping { order.hold(rows.map(\.id)) } else { order.release() }
    }

    override public func close() { viewModel.close() }

    /// Starts loading the first page.
    public func load() { viewModel.load() }
}

extension String {
    /// The string with spaces before it up to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
