/// The floor: the least a value holder with observers can do, written by hand
/// for the type at hand (`Int`).
///
/// A final class holding the value and an array of closures. Setting stores the
/// value and calls each closure. Registering calls the new closure once with the
/// current value (as LiveData and `CurrentValueSubject` do) and hands back the
/// closure's slot, so that removal is O(1): the slot is emptied and reused by a
/// later registration.
public final class Floor {
    public private(set) var value: Int
    private var slots: [((Int) -> Void)?] = []
    private var emptySlots: [Int] = []

    public init(_ value: Int) {
        self.value = value
    }

    public func set(_ newValue: Int) {
        value = newValue
        for slot in slots {
            slot?(newValue)
        }
    }

    /// Registers `update`, calls it with the current value, and returns the
    /// handle that removes it.
    public func register(_ update: @escaping (Int) -> Void) -> Int {
        let slot: Int
        if let reused = emptySlots.popLast() {
            slots[reused] = update
            slot = reused
        } else {
            slots.append(update)
            slot = slots.count - 1
        }
        update(value)
        return slot
    }

    public func remove(_ slot: Int) {
        slots[slot] = nil
        emptySlots.append(slot)
    }
}
