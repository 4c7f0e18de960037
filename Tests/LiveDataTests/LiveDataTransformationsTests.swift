import Testing
import LiveData

@MainActor
@Suite struct LiveDataTransformationsTests {
    @Test func mapTransformsEachValue() {
        let source = MutableLiveData(data: 2)
        let doubled = source.map { $0.map { $0 * 2 } }
        let recorder = Recorder<Int>()
        doubled.observeForever(recorder.update)
        #expect(doubled.data == 4)     // computed when it became active …
        #expect(recorder.count == 0)   // … but registering delivers nothing by itself
        doubled.dispatch()
        source.data = 5
        #expect(recorder.values == [4, 10])
    }

    @Test func mapIsLazyUntilObserved() {
        let source = MutableLiveData(data: 1)
        var calls = 0
        let mapped = source.map { value -> Int? in calls += 1; return value }
        source.data = 2
        #expect(calls == 0)
        #expect(mapped.data == nil)
        #expect(!source.hasObservers)
        let owner = TestOwner(.resumed)
        mapped.observe(owner: owner) { _ in }
        #expect(calls == 1)
        owner.state = .destroyed
        source.data = 3
        #expect(calls == 1)
    }

    @Test func aMappedHolderNobodyElseKeepsWorksWhileObserved() {
        let source = MutableLiveData<String>()
        let recorder = Recorder<String>()
        let owner = TestOwner(.resumed)
        source.map { $0?.uppercased() }.observe(owner: owner, recorder.update)
        source.data = "hi"
        #expect(recorder.values == ["HI"])
    }

    @Test func switchMapFollowsTheInnerHolderTheTransformPicks() {
        let useFirst = MutableLiveData(data: true)
        let first = MutableLiveData(data: "first"), second = MutableLiveData(data: "second")
        let result = useFirst.switchMap { $0 == true ? first : second }
        let recorder = Recorder<String>()
        result.observeForever(recorder.update)
        result.dispatch()
        first.data = "first 2"
        useFirst.data = false
        first.data = "first 3"  // no longer followed
        second.data = "second 2"
        #expect(recorder.values == ["first", "first 2", "second", "second 2"])
        #expect(!first.hasObservers)
    }

    @Test func switchMapReturningTheSameInnerHolderRedispatchesNothing() {
        let trigger = MutableLiveData(data: 0)
        let inner = MutableLiveData(data: "x")
        var transforms = 0
        let result = trigger.switchMap { _ -> LiveData<String>? in transforms += 1; return inner }
        let recorder = Recorder<String>()
        result.observeForever(recorder.update)
        result.dispatch()
        trigger.data = 1
        trigger.data = 2
        #expect(transforms == 3)
        #expect(recorder.values == ["x"])
    }

    @Test func switchMapReturningNilDetachesTheOldInnerHolder() {
        let trigger = MutableLiveData(data: true)
        let inner = MutableLiveData(data: 1)
        let result = trigger.switchMap { $0 == true ? inner : nil }
        let recorder = Recorder<Int>()
        result.observeForever(recorder.update)
        result.dispatch()
        trigger.data = false
        inner.data = 2
        #expect(recorder.values == [1])
        #expect(result.data == 1)
        #expect(!inner.hasObservers)
    }

    @Test func distinctUntilChangedDropsEqualConsecutiveValues() {
        let source = MutableLiveData<Int>()
        let distinct = source.distinctUntilChanged()
        let recorder = Recorder<Int>()
        distinct.observeForever(recorder.update)
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { source.data = value }
        source.data = nil
        source.data = nil
        #expect(recorder.values == [1, 2, 1, 3, nil])
    }

    @Test func distinctUntilChangedPassesTheFirstValueEvenIfNil() {
        let source = MutableLiveData<Int>()
        let distinct = source.distinctUntilChanged()
        let recorder = Recorder<Int>()
        distinct.observeForever(recorder.update)
        source.data = nil
        #expect(recorder.values == [nil])
    }

    @Test func distinctUntilChangedIsLazyUntilObserved() {
        let source = CountingLiveData<Int>()
        let distinct = source.distinctUntilChanged()
        source.data = 1
        #expect(source.events.isEmpty)
        #expect(distinct.data == nil)
        distinct.observeForever { _ in }
        #expect(source.events == [.active])
        #expect(distinct.data == 1)
    }
}
