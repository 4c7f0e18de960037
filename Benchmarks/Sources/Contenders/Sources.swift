import LiveData
import OpenCombine

/// One of the things compared: something holding an `Int` that observers
/// register with, and that delivers every new value to all of them.
@MainActor
protocol ObservedSource: AnyObject {
    associatedtype Handle

    init()

    /// Registers one observer that adds what it receives to `tally`.
    func register(_ tally: Tally) -> Handle
    func remove(_ handle: Handle)
    /// Sets a new value, delivering it to every registered observer.
    func send(_ value: Int)
}

/// The hand-written floor.
@MainActor
final class FloorSource: ObservedSource {
    private let floor = Floor(0)

    init() {}

    func register(_ tally: Tally) -> Int {
        floor.register { value in
            tally.add(value)
        }
    }

    func remove(_ handle: Int) {
        floor.remove(handle)
    }

    func send(_ value: Int) {
        floor.set(value)
    }
}

/// An owner a LiveData contender binds its observers to.
@MainActor
protocol BenchmarkOwner: AnyObject {
    init()
}

/// A view-like owner in the state a visible screen is in: resumed, so the
/// observers bound to it are active.
@MainActor
final class ResumedScreen: LifecycleOwner, BenchmarkOwner {
    let lifecycle = Lifecycle()

    init() {
        lifecycle.state = .created
        lifecycle.state = .started
        lifecycle.state = .resumed
    }
}

/// An owner that is a plain object, without a lifecycle.
final class PlainOwner: BenchmarkOwner {
    init() {}
}

/// LiveData with observers bound to an `Owner`, registered with
/// `observe(owner:)` as a client writes it.
@MainActor
final class LiveDataSource<Owner: BenchmarkOwner>: ObservedSource {
    private let liveData = MutableLiveData<Int>(data: 0)
    private let owner = Owner()

    init() {}

    func register(_ tally: Tally) -> Observer<Int?> {
        liveData.observe(owner: owner) { value in
            tally.add(value ?? 0)
        }
    }

    func remove(_ handle: Observer<Int?>) {
        liveData.remove(observer: handle)
    }

    func send(_ value: Int) {
        liveData.data = value
    }
}

/// The common case: observers bound to a resumed `LifecycleOwner`.
typealias LiveDataOnScreen = LiveDataSource<ResumedScreen>

/// Observers bound to a plain `AnyObject` owner.
typealias LiveDataOnPlainOwner = LiveDataSource<PlainOwner>

/// OpenCombine's `CurrentValueSubject`, observed with `sink`, each subscription
/// held in its `AnyCancellable`.
@MainActor
final class SubjectSource: ObservedSource {
    private let subject = CurrentValueSubject<Int, Never>(0)

    init() {}

    func register(_ tally: Tally) -> AnyCancellable {
        subscribe(tally, to: subject)
    }

    func remove(_ handle: AnyCancellable) {
        handle.cancel()
    }

    func send(_ value: Int) {
        subject.value = value
    }
}

/// Subscribes outside the main actor on purpose: a closure written on the main
/// actor and handed to OpenCombine (a Swift 5 mode module) gets a run-time
/// check of the actor on every call. That check is the toolchain's cost, not
/// `CurrentValueSubject`'s, so it is left out, which only favors the subject.
private func subscribe(_ tally: Tally, to subject: CurrentValueSubject<Int, Never>) -> AnyCancellable {
    subject.sink { value in
        tally.add(value)
    }
}
