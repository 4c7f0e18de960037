import LiveData

/// Records every value delivered to the observers it makes, in order.
@MainActor
final class Recorder<Value> {
    private(set) var values: [Value?] = []

    /// An update closure that appends to ``values``.
    var update: (Value?) -> Void { { [self] value in values.append(value) } }

    /// A new observer that appends to ``values``.
    func observer() -> Observer<Value?> { Observer(update: update) }

    /// Forgets what was recorded so far.
    func reset() { values.removeAll() }

    /// How many values were delivered.
    var count: Int { values.count }
}
