import SampleApp

/// A profile: name, about, counts, and the followers and following as numbered rows.
@MainActor
public final class ProfileView: ScreenView {
    /// The view model drawn.
    public let viewModel: ProfileViewModel
    private var summary: ProfileSummary?
    private var followers: [String] = []
    private var following: [String] = []

    /// Creates the view and starts observing `viewModel`.
    public init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
        super.init()
        bind(viewModel.summary) { [unowned self] in summary = $0 }
        bind(viewModel.followers) { [unowned self] in followers = $0 ?? [] }
        bind(viewModel.following) { [unowned self] in following = $0 ?? [] }
        bindStatus(viewModel.status)
    }

    override public var title: String { "Profile: \(summary?.displayName ?? viewModel.userId)" }
    override public var hints: String { summary?.isMe == false ? "N open · /follow" : "N open" }

    override public func body(width: Int, height: Int) -> [String] {
        guard let summary else { return ["  loading the profile…"] }
        var lines = ["  @\(summary.userId)  \(summary.about)"]
        let followerCount = summary.followerCount == 1 ? "1 follower" : "\(summary.followerCount) followers"
        var relation = "  \(followerCount) · \(summary.followingCount) following"
        if !summary.isMe { relation += summary.isFollowed ? " · you follow them (/follow to stop)" : " · /follow to follow" }
        lines.append(TextLayout.fit(relation, width: width))
        lines.append("")
        lines.append("  followers:")
        lines += followers.enumerated().map { "   \(String($0.offset + 1).leftPadded(to: 2)). \($0.element)" }
        lines.append("  following:")
        lines += following.enumerated().map { "   \(String(followers.count + $0.offset + 1).leftPadded(to: 2)). \($0.element)" }
        return Array(lines.prefix(height))
    }

    override public func handle(_ command: Command) -> ViewAction? {
        switch command {
        case .open(let key):
            guard let id = id(opening: key, row: viewModel.userId(at:)) else { return .say("there is no person \(key)") }
            return .openProfile(userId: id)
        case .follow:
            viewModel.toggleFollow()
            return .done
        default:
            return nil
        }
    }

    override public func close() { viewModel.close() }
}
