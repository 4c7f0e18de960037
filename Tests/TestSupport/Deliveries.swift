/// Records what an observe block receives and lets a test await the next call, with no sleeps.
///
/// A wait ends when the next item arrives or when the test's task is cancelled (as a suite's
/// `.timeLimit` does), so a missing delivery fails the test instead of hanging the run.
@MainActor
public final class Deliveries<Item> {
    private var received: [Item] = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var consumed = 0

    /// Creates an empty log.
    public init() {}

    /// Everything received so far.
    public var all: [Item] { received }

    /// Adds `item` and wakes the test waiting in `next()`, if any.
    public func record(_ item: Item) {
        received.append(item)
        wake()
    }

    private func wake() {
        let waiter = self.waiter
        self.waiter = nil
        waiter?.resume()
    }

    /// The next item not yet returned by `next()`, waiting for it if needed.
    public func next() async throws -> Item {
        while consumed >= received.count {
            try Task.checkCancellation()
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiter = $0 }
            } onCancel: {
                Task { @MainActor in self.wake() }
            }
        }
        consumed += 1
        return received[consumed - 1]
    }

    /// Waits for items until one satisfies `condition`, and returns it (the ones before it are read).
    public func next(where condition: (Item) -> Bool) async throws -> Item {
        while true {
            let item = try await next()
            if condition(item) { return item }
        }
    }

    /// Marks everything received so far as read, so the next wait sees only what comes after.
    public func skipUnread() {
        consumed = received.count
    }

    /// The number of items received but not yet returned by `next()`.
    public var unread: Int { received.count - consumed }
}
