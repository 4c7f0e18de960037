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
    /// The toggles of reactions, one after the other.
    private let reactionActions = ActionQueue()
    /// Whether each reaction is the user's once the toggles queued are done; empty when none is.
    private var intendedReactions: [String: Bool] = [:]

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
        reactionActions.onIdle = { [weak self] in self?.intendedReactions = [:] }
    }

    /// Loads the next page of comments.
    public func loadMoreComments() {
        commentCollection.nextPage()
    }

    /// Comments on the post and returns at once: it shows as syncing as soon as its local copy
    /// is stored, then as stored, or as failed with the reason in the status when the server
    /// refuses it.
    ///
    /// - Returns: the task commenting (for tests; the app does not wait).
    @discardableResult
    public func comment(_ text: String) -> Task<Void, Never> {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .finished }
        let comments = environment.client.comments
        let postId = self.postId
        return Task { [weak self] in
            let failure = await ScreenStatus.failure(of: "not commented") { _ = try await comments.create(text: text, postId: postId) }
            self?.show(actionError: failure)
        }
    }

    /// Adds the user's reaction `name` to the post, or takes it back if it is there, and returns
    /// at once. Toggles of one post run one after the other, in the order given, each deciding
    /// from the outcome the ones before it asked for: `/react like` twice adds then takes back.
    ///
    /// - Returns: the task of this toggle, which ends once the server answered (for tests).
    @discardableResult
    public func toggleReaction(_ name: String) -> Task<Void, Never> {
        let name = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty else { return .finished }
        let mine = intendedReactions[name] ?? reactionsData.data?.first { $0.name == name }?.isMine ?? false
        intendedReactions[name] = !mine
        let reactions = environment.client.reactions
        let postId = self.postId
        // The toggle goes to the server even if the post is left meanwhile.
        return reactionActions.run { [weak self] in
            let failure = await ScreenStatus.failure(of: "reaction not saved") {
                if mine {
                    try await reactions.remove(name, from: .post, targetId: postId)
                } else {
                    try await reactions.add(name, to: .post, targetId: postId)
                }
            }
            self?.show(actionError: failure)
        }
    }

    /// Shows the outcome of an action: its error, or none where the previous action's was.
    private func show(actionError error: String?) {
        let previous = actionError
        actionError = error
        statusData.showActionError(error, replacing: previous)
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
