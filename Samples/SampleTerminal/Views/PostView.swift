import SampleApp

/// A post with its reactions and comments; typing comments, `/react <name>` reacts.
@MainActor
public final class PostView: ScreenView {
    /// The view model drawn.
    public let viewModel: PostViewModel
    private var post: PostRow?
    private var comments: [CommentRow] = []
    private var reactions: [ReactionCount] = []
    private var hasMore = false

    /// Creates the view and starts observing `viewModel`.
    public init(viewModel: PostViewModel) {
        self.viewModel = viewModel
        super.init()
        bind(viewModel.post) { [unowned self] in post = $0 }
        bind(viewModel.comments) { [unowned self] in comments = $0 ?? [] }
        bind(viewModel.reactions) { [unowned self] in reactions = $0 ?? [] }
        bind(viewModel.hasMore) { [unowned self] in hasMore = $0 ?? false }
        bindStatus(viewModel.status)
    }

    override public var title: String { "Post by \(post?.author ?? "…")" }
    override public var hints: String { "type to comment · /react <name> · /back" }

    override public func body(width: Int, height: Int) -> [String] {
        guard let post else { return ["  loading the post…"] }
        var lines = TextLayout.wrap(post.text, width: width - 2).map { "  " + $0 }
        let counted = reactions.map { "\($0.name) \($0.count)\($0.isMine ? "*" : "")" }.joined(separator: "  ")
        lines.append("  reactions: " + (counted.isEmpty ? "none yet" : counted))
        lines.append("  comments (\(post.commentCount)):")
        for comment in comments {
            let replies = comment.replyCount > 0 ? " ↳ \(comment.replyCount)" : ""
            let sync = comment.isFailed ? " (not posted)" : comment.isSyncing ? " (posting)" : ""
            lines.append(TextLayout.fit("    \(comment.author): \(comment.text)\(sync)\(replies)", width: width))
        }
        if hasMore { lines.append("    … /more for more comments") }
        return Array(lines.prefix(height))
    }

    override public func handle(_ command: Command) -> ViewAction? {
        switch command {
        case .say(let text): viewModel.comment(text)
        case .react(let name): viewModel.toggleReaction(name)
        case .more: viewModel.loadMoreComments()
        default: return nil
        }
        return .done
    }

    override public func close() { viewModel.close() }
}
