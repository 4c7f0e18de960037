import SampleApp

/// A community's feed: the communities as tabs, then the posts, newest first, each with its
/// comment and reaction counts.
@MainActor
public final class FeedView: ScreenView {
    /// The view model drawn.
    public let viewModel: FeedViewModel
    private var tabs: [CommunityTab] = []
    private var posts: [PostRow] = []
    private var hasMore = false
    /// While the user types, the posts keep the places they had (see ``HeldOrder``).
    private var order = HeldOrder()
    /// The posts as the screen shows and numbers them.
    private var shown: [PostRow] { order.arrange(posts, id: \.id) }

    /// Creates the view and starts observing `viewModel`.
    public init(viewModel: FeedViewModel) {
        self.viewModel = viewModel
        super.init()
        bind(viewModel.tabs) { [unowned self] in tabs = $0 ?? [] }
        bind(viewModel.posts) { [unowned self] in posts = $0 ?? [] }
        bind(viewModel.hasMore) { [unowned self] in hasMore = $0 ?? false }
        bindStatus(viewModel.status)
    }

    override public var title: String {
        "Feed: " + (tabs.first(where: \.isSelected)?.name ?? viewModel.communityId)
    }
    override public var hints: String { "N open · type to post · /feed <community>" }

    override public func body(width: Int, height: Int) -> [String] {
        let strip = tabs.map { $0.isSelected ? "[\($0.id)]" : " \($0.id) " }.joined(separator: " ")
        var lines = [TextLayout.fit("communities: " + strip, width: width), ""]
        if posts.isEmpty { lines.append(status.isLoading ? "  loading posts…" : "  no posts yet") }
        for (index, post) in shown.enumerated() {
            let sync = post.isFailed ? " (not posted)" : post.isSyncing ? " (posting)" : ""
            lines.append(TextLayout.fit("\(String(index + 1).leftPadded(to: 2)). \(post.author): \(post.text)\(sync)", width: width))
            lines.append(TextLayout.fit("      💬 \(post.commentCount)  ♥ \(post.reactionCount)", width: width))
        }
        if hasMore { lines.append("    … /more for older posts") }
        return Array(lines.prefix(height))
    }

    override public func handle(_ command: Command) -> ViewAction? {
        switch command {
        case .open(let key):
            guard let id = id(opening: key, in: shown) else { return .say("there is no post \(key)") }
            return .openPost(postId: id)
        case .feed(let community?):
            return viewModel.select(community) ? .done : .say("there is no community \(community)")
        case .more:
            viewModel.loadMore()
        case .say(let text):
            viewModel.post(text)
        default:
            return nil
        }
        return .done
    }

    override public func typingChanged() {
        if isTyping { order.hold(posts.map(\.id)) } else { order.release() }
    }

    override public func close() { viewModel.close() }
}
