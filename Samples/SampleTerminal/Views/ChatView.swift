import SampleApp

/// A chat: the newest messages that fit, each with its sender and time, and the user's own
/// messages marked pending or failed. `/more` scrolls back, loading older pages as needed.
@MainActor
public final class ChatView: ScreenView {
    /// The view model drawn.
    public let viewModel: ChatViewModel
    private var rows: [MessageRow] = []
    private var name = ""
    private var hasPrevious = false
    /// How many rows the view is scrolled up from the newest.
    private var scrollOffset = 0
    private var lastHeight = 18
    /// Whether `/more` is waiting for a page of older messages, to scroll up once it is in.
    private var scrollsBackWhenLoaded = false

    /// Creates the view and starts observing `viewModel`.
    public init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        super.init()
        name = viewModel.channelId
        bind(viewModel.messages) { [unowned self] messages in
            rows = messages ?? []
            viewModel.markRead()   // observers run only while the chat is on screen
        }
        bind(viewModel.title) { [unowned self] in name = $0 ?? viewModel.channelId }
        bind(viewModel.hasPrevious) { [unowned self] in hasPrevious = $0 ?? false }
        bindStatus(viewModel.status)
        bind(viewModel.status) { [unowned self] status in
            guard scrollsBackWhenLoaded, status?.isLoading == false else { return }
            scrollsBackWhenLoaded = false
            scrollBack()
        }
        bindNotices(viewModel.notices)
    }

    override public var title: String { "#\(name)" }
    override public var hints: String { "type to send · /more older · /back" }

    override public func body(width: Int, height: Int) -> [String] {
        lastHeight = height
        var lines = rows.map { line(for: $0, width: width) }
        if hasPrevious { lines.insert("    ⋯ older messages: /more", at: 0) }
        if lines.isEmpty { return [status.isLoading ? "  loading messages…" : "  no messages yet: say something"] }
        let end = max(0, lines.count - scrollOffset)
        return Array(lines[max(0, end - height)..<end])
    }

    private func line(for row: MessageRow, width: Int) -> String {
        let mark = switch row.state {
        case .sent: " "
        case .pending: "…"
        case .failed: "!"
        }
        let suffix = switch row.state {
        case .sent: ""
        case .pending: "  (sending)"
        case .failed: "  (failed: /resend)"
        }
        let head = "\(mark)\(TextLayout.clock(row.time)) \(row.sender): "
        return TextLayout.fit(head + row.text + suffix, width: width)
    }

    override public func handle(_ command: Command) -> ViewAction? {
        switch command {
        case .say(let text):
            scrollOffset = 0
            viewModel.send(text)
        case .more:
            if scrollOffset + lastHeight < rows.count + (hasPrevious ? 1 : 0) {
                scrollBack()
            } else {
                // Older messages: the page loads behind, and the view scrolls up once it is in.
                viewModel.loadPrevious()
                if status.isLoading {
                    scrollsBackWhenLoaded = true
                } else {
                    scrollBack()
                }
            }
        case .newer:
            scrollOffset = max(0, scrollOffset - (lastHeight - 1))
            onChange()
        case .resend:
            viewModel.resendFailed()
        case .discard:
            viewModel.discardFailed()
        default:
            return nil
        }
        return .done
    }

    /// Scrolls up a page, as far as the rows go.
    private func scrollBack() {
        let total = rows.count + (hasPrevious ? 1 : 0)
        scrollOffset = max(0, min(scrollOffset + lastHeight - 1, total - lastHeight))
        onChange()
    }

    override public func close() { viewModel.close() }

    /// Starts the chat: it loads behind, and the view shows how it goes.
    public func start() { viewModel.start() }
}
