import Dispatch
import Observation

/// An `Observable` object that follows one ``LiveData/LiveData`` and exposes its value, so that a
/// SwiftUI view (or any `withObservationTracking` caller) reads it and is redrawn when it changes.
///
/// It is the counterpart of Compose's `LiveData.observeAsState()`: while it is alive it is an
/// always-active observer of its holder, so the holder counts as active and its
/// ``LiveData/onActive()`` work (a repository load, say) runs; when it is released its observer
/// is removed and, if it was the last one, ``LiveData/onInactive()`` follows.
///
/// Keep it where the screen's lifetime is. In a SwiftUI view, `@State` holds it for as long as
/// the view is on screen:
///
/// ```swift
/// struct ProfileScreen: View {
///     @State private var name: ObservableLiveData<String>
///
///     init(viewModel: ProfileViewModel) {
///         _name = State(initialValue: ObservableLiveData(viewModel.name, initial: ""))
///     }
///
///     var body: some View {
///         Text(name.value ?? "")   // redrawn with each new value of viewModel.name
///     }
/// }
/// ```
///
/// SwiftUI evaluates `State(initialValue:)` each time the parent rebuilds the view, and keeps
/// only the first object; each extra one is released at once, which removes its observer at
/// once. To observe for as long as a view model lives instead, let the view model hold the bridge
/// (`let nameState = ObservableLiveData(nameData)`) and read `viewModel.nameState.value`.
///
/// ## The contract
///
/// - **Starting value.** ``value`` starts as the holder's current value when one was set
///   (even `nil`), otherwise as the `initial` given to ``init(_:initial:)``.
/// - **Changes.** Each new version of the holder sets ``value`` once, in one observable mutation,
///   so a tracked read is invalidated once per version (also when the new value equals the old
///   one). A repeated ``LiveData/dispatch()`` delivers no version twice, so it invalidates nothing.
/// - **Threads.** The object is isolated to the main actor, as the holder is. A value posted
///   from another thread with ``MutableLiveData/postValue(_:)`` is set on the main actor, and
///   reaches ``value`` there.
/// - **Release.** The holder keeps its observer, and the observer keeps this object only weakly;
///   this object keeps the holder (not the view model that owns it). Released on the main
///   actor, as SwiftUI and main-actor code release it, its observer is removed before the
///   release returns; released on another thread, the removal is scheduled on the main queue.
@MainActor
public final class ObservableLiveData<Value>: Observable {
    private let registrar = ObservationRegistrar()
    private var current: Value?
    /// Kept alive for as long as this object, so that the holder stays observable and active.
    private let source: LiveData<Value>
    /// Ends the observation when this object goes (the deinit runs it).
    private let link: Link

    /// Starts following `source`: registers an always-active observer and takes its current value.
    ///
    /// - Parameters:
    ///   - source: the holder to follow.
    ///   - initial: the ``value`` until `source` delivers one; used only when no value was ever
    ///     set on `source`.
    public init(_ source: LiveData<Value>, initial: Value? = nil) {
        self.source = source
        current = initial
        link = Link(source: source)
        let observer = Observer<Value?> { [link] value in link.bridge?.receive(value) }
        link.bridge = self
        link.observer = observer
        source.observeForever(observer: observer)
        source.dispatch(initiator: observer)
    }

    /// The value of the holder: the newest one delivered, or the starting value.
    ///
    /// Reading it inside SwiftUI's `body` or `withObservationTracking` tracks it.
    public var value: Value? {
        registrar.access(self, keyPath: \.value)
        return current
    }

    private func receive(_ value: Value?) {
        registrar.withMutation(of: self, keyPath: \.value) { current = value }
    }

    deinit {
        // A deinit is not isolated to the main actor (an `isolated deinit` needs a runtime newer
        // than this package's deployment targets, or a back-deployed shim): run the removal at
        // once when released on the main actor, else hand it to the main queue, which serves
        // the main actor in order.
        let link = self.link
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { link.end() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { link.end() } }
        }
    }

    /// The bridge's registration with its holder, and the way back to the bridge for its observer.
    /// The holder keeps it through the observer, so it holds nothing strongly that keeps the
    /// holder or the bridge alive.
    @MainActor
    private final class Link {
        weak var bridge: ObservableLiveData<Value>?
        weak var source: LiveData<Value>?
        var observer: Observer<Value?>?

        init(source: LiveData<Value>) {
            self.source = source
        }

        /// Removes the observer from the holder, once.
        func end() {
            guard let observer else { return }
            self.observer = nil
            source?.remove(observer: observer)
        }
    }
}
