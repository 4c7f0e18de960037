/// A ``MutableLiveData`` that observes other holders (its *sources*) and reacts to their values.
///
/// ```swift
/// let fullName = MediatorLiveData<String>()
/// fullName.addSource(firstName) { [unowned fullName] _ in fullName.data = compose() }
/// fullName.addSource(lastName) { [unowned fullName] _ in fullName.data = compose() }
/// ```
///
/// Sources are observed only while the mediator has active observers, so an unobserved chain of
/// mediators costs nothing and keeps its sources inactive (their ``LiveData/onActive()`` is not
/// called). Each source's value reaches its `onChanged` once per version of that source,
/// including the value the source already holds when it is added to an active mediator, or when
/// the mediator becomes active (Android's rule). While the mediator is active its sources keep
/// it alive, so a mediator nobody else holds (such as the result of ``LiveData/map(_:)``) works
/// for as long as it is observed.
@MainActor
open class MediatorLiveData<Value>: MutableLiveData<Value> {
    private var sources: [any MediatorSource] = []

    /// Creates a mediator with no value and no sources.
    nonisolated public override init() {
        super.init()
    }

    /// Starts passing the values of `source` to `onChanged`, on the main actor.
    ///
    /// If the mediator has active observers, `source` is observed at once and its current value,
    /// if it has one, reaches `onChanged` before this method returns. Adding a source that is
    /// already added is a programming error that stops the program (closures cannot be
    /// compared, so the second `onChanged` could only silently win or lose).
    public func addSource<S>(_ source: LiveData<S>, _ onChanged: @escaping (S?) -> Void) {
        precondition(
            !sources.contains(where: { $0.source === source }),
            "MediatorLiveData: this source was already added; removeSource(_:) it first."
        )
        let link = SourceLink(source: source, onChanged: onChanged)
        sources.append(link)
        if hasActiveObservers { link.plug(keepingAlive: self) }
    }

    /// Stops observing `source`; its values no longer reach the `onChanged` it was added with.
    /// Does nothing if it was not added.
    public func removeSource<S>(_ source: LiveData<S>) {
        guard let index = sources.firstIndex(where: { $0.source === source }) else { return }
        sources.remove(at: index).unplug()
    }

    /// Starts observing every source. Subclasses that override this must call `super`.
    open override func onActive() {
        for link in sources { link.plug(keepingAlive: self) }
    }

    /// Stops observing every source. Subclasses that override this must call `super`.
    open override func onInactive() {
        for link in sources { link.unplug() }
    }
}

/// A source of a ``MediatorLiveData``, of any value type.
@MainActor
private protocol MediatorSource: AnyObject {
    var source: AnyObject { get }
    func plug(keepingAlive mediator: AnyObject)
    func unplug()
}

/// Observes one source for a mediator while plugged, and passes on each version once.
@MainActor
private final class SourceLink<S>: MediatorSource {
    let liveData: LiveData<S>
    let onChanged: (S?) -> Void
    /// The newest source version passed on; kept across unplug and plug, so a version is never
    /// passed on twice.
    private var passedVersion = -1
    /// The observer registered with the source while plugged. It holds this link and the
    /// mediator, so an active mediator lives as long as its sources.
    private var observer: Observer<S?>?

    init(source: LiveData<S>, onChanged: @escaping (S?) -> Void) {
        self.liveData = source
        self.onChanged = onChanged
    }

    var source: AnyObject { liveData }

    func plug(keepingAlive mediator: AnyObject) {
        guard observer == nil else { return }
        let observer = Observer<S?> { [self, mediator] value in
            withExtendedLifetime(mediator) { self.pass(value) }
        }
        self.observer = observer
        liveData.observeForever(observer: observer)
        liveData.dispatch(initiator: observer)
    }

    func unplug() {
        guard let observer else { return }
        self.observer = nil
        liveData.remove(observer: observer)
    }

    private func pass(_ value: S?) {
        guard passedVersion != liveData.version else { return }
        passedVersion = liveData.version
        onChanged(value)
    }
}
