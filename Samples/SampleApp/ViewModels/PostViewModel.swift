import Foundation
import LiveData
import LiveRepository
import LiveSocial

/// One post with its comments and reactions: a live object and two live collections, and the
/// actions to comment and react.
@MainActor
public final class PostViewModel {
    /// The post shown.
    public let postId: String
    private let environment: SampleEnvironment
    private let object: LiveObject<Post>
    private let commentCollection: LiveCollection<Comment>
    private let reactionCollection: LiveCollection<Reaction>
    private var tokens: [NotificationToken] = []
    private let postData = MutableLiveData<PostRow>()
    private let commentsData = MutableLiveData<[CommentRow]>(data: [])
    private let reactionsData = MutableLiveData<[ReactionCount]>(data: [])
    private let statusData = MutableLiveData(data: ScreenStatus(isLoading: true))
    private let hasMoreData = MutableLiveData(data: false)
    private var actionError: String?

    /// The post; nil until it is known.
    public var post: LiveData<PostRow> { postData }
    /// Its top-level comments, oldest first, each with its number of replies.
    public var comments: LiveData<[CommentRow]> { commentsData }
    /// Its reactions, counted by name, most used first.
    public var reactions: LiveData<[ReactionCount]> { reactionsData }
    /// Loading, local or fresh, and the last error, of the comments.
    public var status: LiveData<ScreenStatus> { statusData }
    /// Whether ``loadMoreComments()`` can bring more comments.
    public var hasMore: LiveData<Bool> { hasMoreData }

    /// Creates the view model and starts loading the post, its comments and its reactions.
    public init(postId: String, environment: SampleEnvironment) {
        self.postId = postId
        self.environment = environment
        let client = environment.client
        object = client.posts.get(id: postId)
        commentCollection = client.comments.comments(postId: postId)
        reactionCollection = client.reactions.reactions(on: .post, targetId: postId, pageSize: 100)
        tokens.append(object.observe { [unowned self] object, _ in
            if let post = object.snapshot { postData.data = FeedViewModel.row(post) }
        })
        tokens.append(commentCollection.bind(
            rows: commentsData, status: statusData, hasMore: hasMoreData, actionError: { [weak self] in self?.actionError }
        ) { comment in
            CommentRow(
                id: comment.id, author: comment.authorId, text: comment.isDeleted ? "(deleted)" : comment.text,
                replyCount: comment.replyCount, isSyncing: comment.syncState == .syncing,
                isFailed: comment.syncState == .error)
        })
        let me = environment.userId
        tokens.append(reactionCollection.observe { [unowned self] collection, _, _ in
            reactionsData.data = Self.counts(collection.allObjects(), me: me)
        })
    }

    /// Loads the next page of comments.
    public func loadMoreComments() {
        commentCollection.nextPage()
    }

    /// Comments on the post: it shows at once as syncing, then as stored, or as failed with the
    /// reason in the status when the server refuses it.
    public func comment(_ text: String) async {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        await attempt("not commented") { try await $0.comments.create(text: text, postId: self.postId) }
    }

    /// Adds the user's reaction `name` to the post, or takes it back if it is there.
    public func toggleReaction(_ name: String) async {
        let name = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty else { return }
        let mine = reactionsData.data?.first { $0.name == name }?.isMine ?? false
        let postId = self.postId
        await attempt("reaction not saved") { client in
            if mine {
                try await client.reactions.remove(name, from: .post, targetId: postId)
            } else {
                try await client.reactions.add(name, to: .post, targetId: postId)
            }
        }
    }

    private func attempt<T>(_ failure: String, _ body: (SocialClient) async throws -> T) async {
        let previous = actionError
        do {
            _ = try await body(environment.client)
            actionError = nil
        } catch {
            actionError = "\(failure): \(ScreenStatus.describe(error))"
        }
        statusData.showActionError(actionError, replacing: previous)
    }

    /// Reactions counted by name, most used first, then by name; one the server refused (still
    /// cached, marked as an error) does not count.
    static func counts(_ reactions: [Reaction], me: String) -> [ReactionCount] {
        var counts: [String: ReactionCount] = [:]
        for reaction in reactions where reaction.syncState != .error {
            counts[reaction.name, default: ReactionCount(name: reaction.name, count: 0, isMine: false)].count += 1
            if reaction.userId == me { counts[reaction.name]?.isMine = true }
        }
        return counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }

    /// Stops following the post, its comments and its reactions.
    public func close() {
        for token in tokens { token.invalidate() }
        tokens = []
    }
}
