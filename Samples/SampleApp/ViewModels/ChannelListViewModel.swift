import LiveData
import LiveSocial

/// The channel list: every channel, most recently active first, with its unread count and newest
/// message, kept current by real-time events and by the change log after being offline.
///
/// ``rows`` is a `MediatorLiveData` over the collection's snapshot and the read markers, so it
/// follows both, and only while a view observes it.
@MainActor
public final class ChannelListViewModel: ChannelCollectionDelegate {
    private let environment: SampleEnvironment
    private let collection: ChannelCollection
    private let rowsData = MediatorLiveData<[ChannelRow]>()
    private let statusData = MutableLiveData(data: ScreenStatus())
    private let hasMoreData = MutableLiveData(data: true)
    private var cacheObserver: Observer<[Channel]?>?
    private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)
    private lazy var catchUps = CatchUpCounter { [weak self] total in
        self?.noticeEvents.send("caught up: \(total) channel\(total == 1 ? "" : "s") changed (change log)")
    }

    /// The channels, most recently active first.
    public var rows: LiveData<[ChannelRow]> { rowsData }
    /// Loading, local or fresh, and the last error.
    public var status: LiveData<ScreenStatus> { statusData }
    /// Change-log catch-ups, each told once; those that come while the list is hidden are kept
    /// until it shows again.
    public var notices: LiveEvent<String> { noticeEvents }
    /// Whether ``loadMore()`` can bring more channels.
    public var hasMore: LiveData<Bool> { hasMoreData }

    /// Creates the view model; ``load()`` reads the first page.
    public init(environment: SampleEnvironment) {
        self.environment = environment
        self.collection = environment.client.createChannelCollection()
        collection.delegate = self
        let markers = environment.readMarkers
        // Weakly: a view may keep observing `rows` after the view model is gone.
        rowsData.addSource(collection.snapshot) { [weak self] channels in
            self?.rowsData.data = Self.rows(channels ?? [], markers: markers.counts.data ?? [:])
        }
        rowsData.addSource(markers.counts) { [weak self] counts in
            guard let self else { return }
            rowsData.data = Self.rows(collection.channels, markers: counts ?? [:])
        }
        // Cached channels shown before the server's page: the list is local until it answers.
        cacheObserver = collection.snapshot.observeForever { [weak self] channels in
            guard let self, !collection.hasLoadedFromServer, channels?.isEmpty == false else { return }
            statusData.update { $0.source = .local }
        }
    }

    /// Loads the first page: cached channels at once (local), then the server's (fresh).
    /// Returns at once, loading; ``rows`` and ``status`` tell how it goes.
    ///
    /// - Returns: the task loading it (for tests; the app does not wait).
    @discardableResult
    public func load() -> Task<Void, Never> {
        guard !collection.hasLoadedFromServer, statusData.data?.isLoading != true else { return .finished }
        return loadMore()
    }

    /// Loads the next page of channels. Returns at once, loading; ``rows`` and ``status`` tell
    /// how it goes.
    ///
    /// - Returns: the task loading it (for tests; the app does not wait).
    @discardableResult
    public func loadMore() -> Task<Void, Never> {
        guard collection.hasMore, statusData.data?.isLoading != true else { return .finished }
        statusData.update { $0.isLoading = true }
        let collection = self.collection
        return Task { [statusData, hasMoreData] in
            do {
                try await collection.loadMore()
                statusData.update {
                    $0.error = nil
                    $0.source = collection.hasLoadedFromServer ? .fresh : (collection.channels.isEmpty ? .nothing : .local)
                }
            } catch {
                statusData.update { $0.error = ScreenStatus.describe(error) }
            }
            statusData.update { $0.isLoading = false }
            hasMoreData.data = collection.hasMore
        }
    }

    /// The id of the channel on row `index` (from 0), if there is one.
    public func channelId(at index: Int) -> String? {
        guard let rows = rowsData.data, rows.indices.contains(index) else { return nil }
        return rows[index].id
    }

    /// Disposes of the channel collection; the view model does nothing afterwards.
    public func close() {
        if let cacheObserver { collection.snapshot.remove(observer: cacheObserver) }
        collection.dispose()
    }

    static func rows(_ channels: [Channel], markers: [String: Int]) -> [ChannelRow] {
        channels.map { channel in
            ChannelRow(
                id: channel.id, name: channel.displayName,
                unreadCount: max(0, channel.messageCount - (markers[channel.id] ?? 0)),
                lastMessage: channel.lastMessageText, lastActivityAt: channel.lastActivityAt)
        }
    }

    // MARK: ChannelCollectionDelegate

    /// Reports channels found by a change-log catch-up.
    public func channelCollection(_ collection: ChannelCollection, context: ChannelContext, addedChannels: [Channel]) {
        reportCatchUp(addedChannels.count, context)
    }

    /// Reports channels changed while offline, found by a change-log catch-up.
    public func channelCollection(_ collection: ChannelCollection, context: ChannelContext, updatedChannels: [Channel]) {
        reportCatchUp(updatedChannels.count, context)
    }

    private func reportCatchUp(_ count: Int, _ context: ChannelContext) {
        guard context.source == .changelog else { return }
        catchUps.add(count)
    }
}
