/// The work every observer does, the same for all contenders: fold the
/// delivered value into a counter held by a class. Each contender's observer is
/// a closure literal written at the registration call, as a client writes it.
///
/// The counter sits behind a pointer so that the observer's own work stays a
/// single add (a stored `var` of a class would add the runtime's exclusivity
/// check to every call, the same for everyone, and blur the comparison).
public final class Tally {
    private let counter: UnsafeMutablePointer<Int>

    public init() {
        counter = .allocate(capacity: 1)
        counter.initialize(to: 0)
    }

    deinit {
        counter.deallocate()
    }

    /// The sum of every value delivered to every observer since the last reset.
    public var total: Int {
        counter.pointee
    }

    public func reset() {
        counter.pointee = 0
    }

    @inline(__always)
    func add(_ value: Int) {
        counter.pointee &+= value
    }
}
