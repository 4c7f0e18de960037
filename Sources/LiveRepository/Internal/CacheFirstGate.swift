/// Holds back a server answer that arrives before the first cache read has landed: the cache
/// speaks first, so cached data is never reported missing because a quick failure won the race.
struct CacheFirstGate {
    /// Whether the first cache read has landed.
    private(set) var isOpen = false
    private var held: (() -> Void)?

    /// Keeps `action` until ``open()``; a later one replaces it (only the newest answer counts).
    mutating func hold(_ action: @escaping () -> Void) {
        held = action
    }

    /// Marks the first cache read as landed, once, and returns the held action to run now.
    mutating func open() -> (() -> Void)? {
        guard !isOpen else { return nil }
        isOpen = true
        defer { held = nil }
        return held
    }
}
