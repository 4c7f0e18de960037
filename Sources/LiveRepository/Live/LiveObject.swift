import LiveData
import Observation

/// One record, kept current from the cache, the server and real-time changes.
///
/// The flow is the one Amity's and Eko's SDKs document. When the cache holds the record, every
/// observer is called at once (on the main actor) with it and ``dataStatus`` is
/// ``DataStatus/local``. In parallel the server is asked; when it answers, observers are called
/// again with ``DataStatus/fresh``. Any later change to the record from any source (a real-time
/// event, a local write, a collection page that carried it) calls them again. A failing server
/// sets ``loadingStatus`` to ``LoadingStatus/error`` and delivers the ``error``; local data stays.
/// Nothing is called when nothing an observer can see changed. A change stored while the server's
/// answer was on its way (a real-time event, a local write) is as new as the answer or newer: the
/// answer then does not replace it, in the cache or in ``snapshot``.
///
/// ```swift
/// let user = repository.user(id: "ada")
/// token = user.observe { [weak self] user, error in
///     guard let self, let snapshot = user.snapshot else { return }
///     nameLabel.text = snapshot.displayName    // local first, then fresh
/// }
/// ```
///
/// Live objects are `Observable`: SwiftUI views and `withObservationTracking` see
/// ``dataStatus``, ``loadingStatus``, ``snapshot`` and ``error`` change together, in one
/// mutation, so nobody ever reads a new status with an old snapshot or the reverse.
@MainActor
public final class LiveObject<Record: CacheRecord>: Observable {
    /// The `id` of the record.
    public let id: String

    /// The statuses and the record. Read and set the statuses as `status.…`: no dynamic members,
    /// whose key paths the runtime would apply at each use.
    private struct State {
        var status = LiveStatus()
        var snapshot: Record?
    }

    private let store: LiveStore
    private let fetch: (@Sendable () async throws -> Record?)?
    private let revisions = Revisions()
    private let registrar = ObservationRegistrar()
    private var state = State()
    /// `\.state`, made once: a key path into a generic class is made anew each time one is
    /// written (the runtime instantiates it for `Record`), a cost every delivery paid.
    private let stateKeyPath: KeyPath<LiveObject, State> = \.state
    private var fetchGeneration = 0
    private var cacheFirst = CacheFirstGate()

    /// Creates a live object for the record `id` and starts loading it: from the cache at once,
    /// and from the server through `fetch` when one is given (nil: the server does not know the
    /// record). Usually a repository creates it for you.
    ///
    /// - Parameters:
    ///   - store: the cache the record is read from and the server's answer is written to.
    ///   - id: the primary key of the record to show.
    ///   - fetch: asks the server for the record; nil means it does not exist there.
    public init(store: LiveStore, id: String, fetch: (@Sendable () async throws -> Record?)?) {
        self.store = store
        self.id = id
        self.fetch = fetch
        store.hub.addObject(self, table: Record.table.name, id: id)
        reloadFromCache()
        refresh()
    }

    // MARK: State

    /// Where ``snapshot`` comes from: nothing yet, the cache, or the server.
    public var dataStatus: DataStatus { read().status.dataStatus }
    /// The state of the latest server request.
    public var loadingStatus: LoadingStatus { read().status.loadingStatus }
    /// The record, or nil when it is not known or does not exist.
    public var snapshot: Record? { read().snapshot }
    /// The latest error from the server or the cache, or nil. Cleared by the next success.
    public var error: (any Error)? { read().status.error }

    private func read() -> State {
        registrar.access(self, keyPath: stateKeyPath)
        return state
    }

    /// Applies `body` to the state in one observable mutation; calls observers when something
    /// they can see changed (a move to `.loading` alone changes the property but calls no one).
    private func update(_ body: (inout State) -> Void) {
        var next = state
        body(&next)
        let visible = next.snapshot != state.snapshot || next.status.isVisibleChange(from: state.status)
        let changed = visible || next.status.loadingStatus != state.status.loadingStatus
        guard changed else { return }
        registrar.withMutation(of: self, keyPath: stateKeyPath) { state = next }
        if visible { revisions.publish() }
    }

    // MARK: Observing

    /// Calls `block` now if there is something to show, then after every visible change, until
    /// the returned token is invalidated or released.
    ///
    /// The token keeps this live object working until then (its loading and its real-time updates),
    /// so holding the token alone is enough.
    ///
    /// The block gets this live object (read ``snapshot`` and the statuses from it) and the
    /// error of the delivery, if any. It is called on the main actor.
    public func observe(_ block: @escaping (LiveObject<Record>, (any Error)?) -> Void) -> NotificationToken {
        revisions.observe(keeping: self) { [unowned self] _ in block(self, state.status.error) }
    }

    /// Calls `block` exactly once, then ends the observation.
    ///
    /// By default the call comes with the first delivery, which is the cached record when there
    /// is one, as the seed documents. Pass `.fresh` to wait for the server's answer (or its error).
    /// Keep the token until the call comes: releasing it cancels the wait. Until then the token
    /// keeps this live object working, as ``observe(_:)``'s does.
    public func observeOnce(
        _ condition: ObserveOnceCondition = .firstDelivery,
        _ block: @escaping (LiveObject<Record>, (any Error)?) -> Void
    ) -> NotificationToken {
        revisions.observe(keeping: self, once: true, accept: { [unowned self] in
            condition == .firstDelivery || state.status.dataStatus == .fresh || state.status.error != nil
        }) { [unowned self] _ in block(self, state.status.error) }
    }

    // MARK: Loading

    /// Asks the server for the record again. Does nothing without a server.
    public func refresh() {
        guard let fetch else { return }
        fetchGeneration += 1
        let generation = fetchGeneration
        update { $0.status.loadingStatus = .loading }
        // The cached record as the request goes out, read on the store's queue before any write
        // queued later: the answer may have been read by the server before those writes.
        let baseline = LockedState(CacheBaseline<Record>())
        let id = self.id
        store.read({ connection in
            let before = try Record.read(id: id, from: connection)
            baseline.withLock { $0.before = .some(before) }
        }, completion: { _ in })
        Task { [weak self] in
            let result: Result<Record?, any Error>
            do { result = .success(try await fetch()) } catch { result = .failure(error) }
            self?.serverAnswered(result, generation: generation, baseline: baseline)
        }
    }

    private func serverAnswered(_ result: Result<Record?, any Error>, generation: Int, baseline: LockedState<CacheBaseline<Record>>) {
        guard generation == fetchGeneration else { return }
        guard cacheFirst.isOpen else {
            return cacheFirst.hold { [weak self] in self?.serverAnswered(result, generation: generation, baseline: baseline) }
        }
        switch result {
        case .failure(let error):
            update {
                $0.status.loadingStatus = .error
                $0.status.error = error
                if $0.snapshot == nil { $0.status.dataStatus = .error }
            }
        case .success(let record):
            let id = self.id
            store.enqueueWrite({ transaction in
                // A record that changed in the cache after the request went out (a real-time
                // event, a local write) is as new as the answer or newer: it stands, as it is.
                let current = try transaction.record(Record.self, id: id)
                if let before = baseline.withLock({ $0.before }), current != before {
                    baseline.withLock { $0.kept = .some(current) }
                } else if let record {
                    try transaction.upsert(record)
                } else {
                    try transaction.delete(Record.self, id: id)
                }
            }, completion: { [weak self] error in
                self?.serverRecordStored(baseline.withLock { $0.kept } ?? record, error: error, generation: generation)
            })
        }
    }

    private func serverRecordStored(_ record: Record?, error: (any Error)?, generation: Int) {
        guard generation == fetchGeneration else { return }
        update {
            $0.snapshot = record
            $0.status.dataStatus = record == nil ? .notExist : .fresh
            $0.status.loadingStatus = .loaded
            // The server's answer stands even if the cache could not keep it; say why it won't last.
            $0.status.error = error
        }
    }

    /// Reads the record from the cache and shows it, keeping a fresh status fresh.
    private func reloadFromCache() {
        let id = self.id
        store.read({ try Record.read(id: id, from: $0) }, completion: { [weak self] result in
            self?.cacheAnswered(result)
        })
    }

    private func cacheAnswered(_ result: Result<Record?, any Error>) {
        defer { cacheFirst.open()?() }
        update {
            switch result {
            case .success(let record):
                $0.snapshot = record
                if record == nil {
                    $0.status.dataStatus = .notExist
                } else if $0.status.dataStatus != .fresh {
                    $0.status.dataStatus = .local
                }
                if $0.status.loadingStatus != .error { $0.status.error = nil }
            case .failure(let error):
                $0.status.error = error
                if $0.snapshot == nil { $0.status.dataStatus = .error }
            }
        }
    }
}

extension LiveObject: CacheChangeListener {
    func cacheDidChange(_ change: TableChange) {
        reloadFromCache()
        if change.isRebuilt { refresh() }
    }
}

/// What a live object's server request needs to know of the cache: the record when the request
/// went out, and the newer record the cache kept instead of the answer. It lives in a
/// `LockedState`: a read on the store's queue sets `before`, the answer's write on that queue reads
/// it and sets `kept`, and the write's completion on the main actor reads `kept`.
private struct CacheBaseline<Record: CacheRecord>: Sendable {
    /// The cached record when the request went out (`.some(nil)`: none); nil until read, or when
    /// the read failed, and then the answer is stored as it is.
    var before: Record??
    /// The record the cache kept because it changed after the request went out (`.some(nil)`:
    /// deleted meanwhile); nil when the answer was stored.
    var kept: Record??
}
