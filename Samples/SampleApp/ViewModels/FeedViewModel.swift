import Foundation
import LiveData
import LiveRepository
import LiveSocial

/// A community's feed: its posts, newest first, in pages of 20, with the communities to switch
/// between. Both are Amity-style live collections: cached rows first, then the server's, then
/// every real-time change.
@MainActor
public final class FeedViewModel {
    private let environment: SampleEnvironment
    private let communityCollection: LiveCollection<Community>
    private var postCollection: LiveCollection<Post>?
    private var communityToken: NotificationToken?
    private var postToken: NotificationToken?
    private let communitiesData = MutableLiveData<[CommunityTab]>(data: [])
    private let postsData = MutableLiveData<[PostRow]>(data: [])
    private let statusData = MutableLiveData(data: ScreenStatus(isLoading: true))
    private let hasMoreData = MutableLiveData(data: false)
    private var communities: [Community] = []
    private var actionError: String?

    /// The community whose feed is shown.
    public private(set) var communityId: String
    /// The communities, by name, the shown one selected.
    public var tabs: LiveData<[CommunityTab]> { communitiesData }
    /// The shown community's posts, newest first.
    public var posts: LiveData<[PostRow]> { postsData }
    /// Loading, local or fresh, and the last error, of the posts.
    public var status: LiveData<ScreenStatus> { statusData }
    /// Whether ``loadMore()`` can bring older posts.
    public var hasMore: LiveData<Bool> { hasMoreData }

    /// Creates the view model and starts loading the communities and the feed of `communityId`.
    public init(communityId: String = "swift", environment: SampleEnvironment) {
        self.environment = environment
        self.communityId = communityId
        communityCollection = environment.client.communities.communities()
        communityToken = communityCollection.observe { [unowned self] collection, _, _ in
            communities = collection.allObjects()
            publishTabs()
        }
        show(communityId)
    }

    /// Shows the feed of another community, by id or by its number in ``tabs`` (from 1).
    ///
    /// - Returns: false when there is no such community: a number out of range, or an id not
    ///   among the communities. Before the communities have loaded, any id is taken as given.
    @discardableResult
    public func select(_ idOrNumber: String) -> Bool {
        let id: String
        if let number = Int(idOrNumber) {
            guard communities.indices.contains(number - 1) else { return false }
            id = communities[number - 1].id
        } else {
            guard communities.isEmpty || communities.contains(where: { $0.id == idOrNumber }) else { return false }
            id = idOrNumber
        }
        guard id != communityId || postCollection == nil else { return true }
        show(id)
        return true
    }

    private func show(_ id: String) {
        communityId = id
        postToken?.invalidate()
        let collection = environment.client.posts.communityFeed(communityId: id)
        postCollection = collection
        postToken = collection.bind(
            rows: postsData, status: statusData, hasMore: hasMoreData, actionError: { [weak self] in self?.actionError },
            Self.row)
        publishTabs()
    }

    private func publishTabs() {
        communitiesData.data = communities.map { CommunityTab(id: $0.id, name: $0.displayName, isSelected: $0.id == communityId) }
    }

    /// Loads the next page of older posts.
    public func loadMore() {
        postCollection?.nextPage()
    }

    /// The id of the post on row `index` (from 0), if there is one.
    public func postId(at index: Int) -> String? {
        guard let posts = postsData.data, posts.indices.contains(index) else { return nil }
        return posts[index].id
    }

    /// Posts `text` in the shown community and returns at once: it shows as syncing as soon as
    /// its local copy is stored, then as stored, or as failed with the reason in the status when
    /// the server refuses it.
    ///
    /// - Returns: the task posting it (for tests; the app does not wait).
    @discardableResult
    public func post(_ text: String) -> Task<Void, Never> {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .finished }
        let posts = environment.client.posts
        let communityId = self.communityId
        return Task { [weak self] in
            let failure = await ScreenStatus.failure(of: "not posted") {
                _ = try await posts.create(text: text, in: .community, targetId: communityId)
            }
            guard let self else { return }
            let previous = actionError
            actionError = failure
            statusData.showActionError(failure, replacing: previous)
        }
    }

    /// Stops following the collections.
    public func close() {
        communityToken?.invalidate()
        postToken?.invalidate()
    }

    static func row(_ post: Post) -> PostRow {
        PostRow(
            id: post.id, author: post.authorId, text: post.text, commentCount: post.commentCount,
            reactionCount: post.reactionCount, time: post.createdAt, isSyncing: post.syncState == .syncing,
            isFailed: post.syncState == .error)
    }
}
