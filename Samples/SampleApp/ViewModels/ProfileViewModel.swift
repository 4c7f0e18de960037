import LiveData
import LiveRepository
import LiveSocial

/// A user's profile: name, about and counts (a live object), whether the signed-in user follows
/// them (another), and who follows them and whom they follow (two live collections).
@MainActor
public final class ProfileViewModel {
    /// The user shown.
    public let userId: String
    private let environment: SampleEnvironment
    private let user: LiveObject<User>
    private let follow: LiveObject<Follow>
    private let followerCollection: LiveCollection<Follow>
    private let followingCollection: LiveCollection<Follow>
    private var tokens: [NotificationToken] = []
    private let summaryData = MutableLiveData<ProfileSummary>()
    private let followersData = MutableLiveData<[String]>(data: [])
    private let followingData = MutableLiveData<[String]>(data: [])
    private let statusData = MutableLiveData(data: ScreenStatus(isLoading: true))
    /// Why the last follow or unfollow failed; nil once one succeeds.
    private var actionError: String?
    /// The follows and unfollows, one after the other.
    private let followActions = ActionQueue()
    /// Whether the user is followed once the toggles queued are done; nil when none is.
    private var intendedFollow: Bool?

    /// The head of the profile; nil until the user is known.
    public var summary: LiveData<ProfileSummary> { summaryData }
    /// The ids of the users who follow them, newest first.
    public var followers: LiveData<[String]> { followersData }
    /// The ids of the users they follow, newest first.
    public var following: LiveData<[String]> { followingData }
    /// Loading, local or fresh, and the last error, of the profile.
    public var status: LiveData<ScreenStatus> { statusData }

    /// Creates the view model and starts loading the profile of `userId`.
    public init(userId: String, environment: SampleEnvironment) {
        self.userId = userId
        self.environment = environment
        let client = environment.client
        user = client.users.get(id: userId)
        follow = client.follows.get(followerId: client.userId, followeeId: userId)
        followerCollection = client.follows.followers(of: userId)
        followingCollection = client.follows.following(of: userId)
        tokens.append(user.observe { [unowned self] user, error in
            var status = ScreenStatus(loading: user.loadingStatus, data: user.dataStatus, error: error)
            status.error = status.error ?? actionError
            if status != statusData.data { statusData.data = status }
            publishSummary()
        })
        tokens.append(follow.observe { [unowned self] _, _ in publishSummary() })
        // A follow the server refused stays cached, marked as an error: it is nobody's follow.
        tokens.append(followerCollection.bind(rows: followersData) { $0.syncState == .error ? nil : $0.followerId })
        tokens.append(followingCollection.bind(rows: followingData) { $0.syncState == .error ? nil : $0.followeeId })
        followActions.onIdle = { [weak self] in self?.intendedFollow = nil }
    }

    private func publishSummary() {
        guard let user = user.snapshot else { return }
        summaryData.data = ProfileSummary(
            userId: user.id, displayName: user.displayName, about: user.about, followerCount: user.followerCount,
            followingCount: user.followingCount, isMe: user.id == environment.userId, isFollowed: isFollowed)
    }

    /// Whether the signed-in user follows this user: a follow that the server refused does not count.
    private var isFollowed: Bool {
        guard let follow = follow.snapshot else { return false }
        return follow.syncState != .error
    }

    /// The user on row `index` (from 0) of the followers then the following, if there is one.
    public func userId(at index: Int) -> String? {
        let people = (followersData.data ?? []) + (followingData.data ?? [])
        return people.indices.contains(index) ? people[index] : nil
    }

    /// Follows the user, or unfollows them if followed, and returns at once; nothing on the
    /// user's own profile. Toggles run one after the other, in the order given, each deciding
    /// from the outcome the ones before it asked for: `/follow` twice follows then unfollows.
    ///
    /// - Returns: the task of this toggle, which ends once the server answered (for tests).
    @discardableResult
    public func toggleFollow() -> Task<Void, Never> {
        guard userId != environment.userId else { return .finished }
        let follows = environment.client.follows
        let userId = self.userId
        let follow = !(intendedFollow ?? isFollowed)
        intendedFollow = follow
        // The toggle goes to the server even if the profile is left meanwhile.
        return followActions.run { [weak self] in
            let failure = await ScreenStatus.failure(of: "follow not changed") {
                if follow {
                    try await follows.follow(userId)
                } else {
                    try await follows.unfollow(userId)
                }
            }
            guard let self else { return }
            let previous = actionError
            actionError = failure
            statusData.showActionError(failure, replacing: previous)
        }
    }

    /// Stops following the profile and its lists.
    public func close() {
        for token in tokens { token.invalidate() }
        tokens = []
    }
}
