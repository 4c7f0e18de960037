extension LiveData {
    /// A holder whose value is `transform` applied to each value of this one.
    ///
    /// Lazy, as Android's: nothing is computed until the result has an active observer; then the
    /// current value of this holder is transformed at once (making it the result's ``data``, but
    /// not delivering it to the observer that just registered: call ``dispatch()`` for that), and
    /// each later value as it is set. `transform` runs on the main actor.
    public func map<T>(_ transform: @escaping (Value?) -> T?) -> LiveData<T> {
        let result = MediatorLiveData<T>()
        result.addSource(self) { [unowned result] value in
            result.data = transform(value)
        }
        return result
    }

    /// A holder that follows the holder `transform` returns for each value of this one.
    ///
    /// When this holder's value changes, `transform` picks an inner holder and the result takes
    /// its values from then on. Returning the inner holder already followed changes nothing and
    /// delivers nothing; returning nil detaches the old inner holder and keeps the result's last
    /// value. Lazy until the result is observed, like ``map(_:)``.
    public func switchMap<T>(_ transform: @escaping (Value?) -> LiveData<T>?) -> LiveData<T> {
        let result = MediatorLiveData<T>()
        var inner: LiveData<T>?
        result.addSource(self) { [unowned result] value in
            let next = transform(value)
            guard next !== inner else { return }
            if let inner { result.removeSource(inner) }
            inner = next
            if let next {
                result.addSource(next) { [unowned result] innerValue in result.data = innerValue }
            }
        }
        return result
    }
}

extension LiveData where Value: Equatable {
    /// A holder that passes on a value of this one only when it differs from the last value
    /// passed on (the first value always passes).
    ///
    /// Lazy until observed, as Android's; compares with `==`, nil included.
    public func distinctUntilChanged() -> LiveData<Value> {
        let result = MediatorLiveData<Value>()
        var isFirst = true
        result.addSource(self) { [unowned result] value in
            guard isFirst || result.data != value else { return }
            isFirst = false
            result.data = value
        }
        return result
    }
}
