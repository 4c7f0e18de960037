import Testing
import LiveData

/// How a holder tells owners apart, and what it does with an owner that is being deallocated:
/// the same rules on every runtime (see `OwnerReference`).
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct OwnerIdentityTests {
    /// Which path finds the dead owner's reference when the new owner registers.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        /// The dead owner registered last: the holder's remembered latest owner.
        case latestOwner
        /// Another owner registered since: the holder's table of owners.
        case ownerTable

        var testDescription: String { rawValue }
    }

    // MARK: Address reuse

    @Test(arguments: Path.allCases)
    func aNewPlainOwnerAtADeadOwnersAddressIsNotTakenForIt(path: Path) {
        repeatUntilReused {
            let liveData = MutableLiveData<Int>()
            let dead = Recorder<Int>(), reborn = Recorder<Int>(), bystander = Recorder<Int>()
            var old: PlainOwner? = PlainOwner()
            liveData.observe(owner: old!, dead.update)
            let other = PlainOwner()
            if path == .ownerTable { liveData.observe(owner: other, bystander.update) }
            let address = ObjectIdentifier(old!)
            old = nil
            guard let new = allocate(at: address, { PlainOwner() }) else { return false }

            liveData.observe(owner: new, reborn.update)
            liveData.data = 1
            liveData.data = 2
            #expect(dead.values.isEmpty)
            #expect(reborn.values == [1, 2], "the new owner's observer must not die with the old owner")
            liveData.removeObservers(owner: new)
            liveData.data = 3
            #expect(reborn.values == [1, 2])
            #expect(liveData.hasObservers == (path == .ownerTable))
            return true
        }
    }

    @Test(arguments: Path.allCases)
    func aNewLifecycleOwnerAtADeadOwnersAddressFollowsItsOwnLifecycle(path: Path) {
        repeatUntilReused {
            let liveData = MutableLiveData<Int>()
            let dead = Recorder<Int>(), reborn = Recorder<Int>(), bystander = Recorder<Int>()
            var old: TestOwner? = TestOwner(.resumed)
            liveData.observe(owner: old!, dead.update)
            let other = TestOwner(.resumed)
            if path == .ownerTable { liveData.observe(owner: other, bystander.update) }
            let address = ObjectIdentifier(old!)
            old = nil
            guard let new = allocate(at: address, { TestOwner(.created) }) else { return false }

            liveData.observe(owner: new, reborn.update)
            liveData.data = 1
            #expect(reborn.values.isEmpty, "inactive: its own lifecycle is only created")
            new.state = .resumed
            #expect(reborn.values == [1])
            liveData.data = 2
            new.state = .created
            liveData.data = 3
            #expect(reborn.values == [1, 2])
            #expect(dead.values.isEmpty)
            new.state = .destroyed
            #expect(liveData.hasObservers == (path == .ownerTable))
            return true
        }
    }

    /// Found by `LiveDataModelTests` (seed 128, under the thread sanitizer's allocator): a new
    /// owner at a dead owner's address that removes its own observers must leave the dead
    /// owner's alone; they are found gone at the next delivery, not ended by someone else.
    @Test(arguments: Path.allCases)
    func removingANewOwnersObserversLeavesTheDeadOwnersAtItsAddress(path: Path) {
        repeatUntilReused {
            let liveData = CountingLiveData<Int>()
            var old: PlainOwner? = PlainOwner()
            liveData.observe(owner: old!) { _ in }
            let other = PlainOwner()
            if path == .ownerTable { liveData.observe(owner: other) { _ in } }
            let address = ObjectIdentifier(old!)
            old = nil
            guard let new = allocate(at: address, { PlainOwner() }) else { return false }
            liveData.observe(owner: new) { _ in }
            liveData.removeObservers(owner: new)
            #expect(liveData.events == [.active], "the dead owner's observer still counts until it is found gone")
            liveData.data = 1
            #expect(liveData.events == (path == .ownerTable ? [.active] : [.active, .inactive]))
            _ = other
            return true
        }
    }

    @Test func aLifecycleOwnerAtADeadOwnersAddressThatNeverRegisteredRemovesNothing() {
        repeatUntilReused {
            let liveData = CountingLiveData<Int>()
            var old: TestOwner? = TestOwner(.resumed)
            liveData.observe(owner: old!) { _ in }
            let address = ObjectIdentifier(old!)
            old = nil
            guard let new = allocate(at: address, { TestOwner(.resumed) }) else { return false }
            liveData.removeObservers(owner: new)
            #expect(liveData.events == [.active])
            return true
        }
    }

    // MARK: Owners being deallocated

    @Test func anOwnerCanRemoveItsObserversFromItsDeinit() {
        let liveData = CountingLiveData<Int>()
        var owner: RemovingOwner? = RemovingOwner(liveData)
        let recorder = Recorder<Int>()
        liveData.observe(owner: owner!, recorder.update)
        liveData.observe(owner: owner!, recorder.update)
        #expect(liveData.events == [.active])
        owner = nil
        // Removed by the deinit itself, not found gone later: onInactive has run already.
        #expect(liveData.events == [.active, .inactive])
        #expect(!liveData.hasObservers)
    }

    @Test func registeringFromADeinitThatDestroyedTheLifecycleFirstIsIgnored() {
        let liveData = CountingLiveData<Int>()
        var owner: ClosingOwner? = ClosingOwner(liveData)
        let recorder = Recorder<Int>()
        liveData.observe(owner: owner!, recorder.update)
        owner = nil  // its deinit destroys its lifecycle, then registers again: ignored
        liveData.data = 1
        #expect(recorder.values.isEmpty)
        #expect(!liveData.hasObservers)
        #expect(liveData.events == [.active, .inactive])
    }

    #if os(macOS) || os(Linux)  // exit tests: not on iOS and its siblings, which cannot spawn a process
    @Test func registeringANewOwnerFromItsDeinitStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                var owner: RegisteringOwner? = RegisteringOwner(MutableLiveData<Int>())
                _ = owner
                owner = nil
            }
        }
    }

    @Test func registeringAKnownOwnerAgainFromItsDeinitStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let liveData = MutableLiveData<Int>()
                var owner: RegisteringOwner? = RegisteringOwner(liveData)
                liveData.observe(owner: owner!) { _ in }
                owner = nil
            }
        }
    }
    #endif
}

/// Runs `attempt` until it returns true: an attempt sets up a dead owner and returns false when
/// the allocator did not give its address to a new object (another thread may take the freed
/// block first, as when tests run side by side). Fails the test after 20 such attempts.
@MainActor
private func repeatUntilReused(_ attempt: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    for _ in 0 ..< 20 where attempt() { return }
    Issue.record("the allocator never gave a dead owner's address again, in 20 attempts", sourceLocation: sourceLocation)
}

/// Allocates with `make` until an object lands at `address`, keeping the misses alive meanwhile
/// so that each try takes a new address; nil if none does within `limit` tries. Allocators hand
/// a freed block of the same size back soon (glibc's at once), which a test uses to put a new
/// owner where a dead one was.
@MainActor
private func allocate<Object: AnyObject>(
    at address: ObjectIdentifier, limit: Int = 2_000, _ make: () -> Object
) -> Object? {
    var misses: [Object] = []
    for _ in 0 ..< limit {
        let candidate = make()
        if ObjectIdentifier(candidate) == address { return candidate }
        misses.append(candidate)
    }
    return nil
}

/// An owner whose deinit removes its observers from a holder.
private final class RemovingOwner: Sendable {
    let liveData: CountingLiveData<Int>
    init(_ liveData: CountingLiveData<Int>) { self.liveData = liveData }
    deinit {
        MainActor.assumeIsolated { liveData.removeObservers(owner: self) }
    }
}

/// A lifecycle owner whose deinit destroys its lifecycle, then (through code it calls, say)
/// registers with itself as the owner.
private final class ClosingOwner: LifecycleOwner, Sendable {
    let lifecycle = Lifecycle()
    let liveData: CountingLiveData<Int>
    init(_ liveData: CountingLiveData<Int>) {
        self.liveData = liveData
        lifecycle.state = .resumed
    }
    deinit {
        MainActor.assumeIsolated {
            lifecycle.state = .destroyed
            _ = liveData.observe(owner: self) { _ in }
        }
    }
}

/// An owner whose deinit registers with itself as the owner: a programming error.
private final class RegisteringOwner: Sendable {
    let liveData: MutableLiveData<Int>
    init(_ liveData: MutableLiveData<Int>) { self.liveData = liveData }
    deinit {
        MainActor.assumeIsolated { _ = liveData.observe(owner: self) { _ in } }
    }
}
