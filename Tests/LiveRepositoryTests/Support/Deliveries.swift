/// Records what an observe block receives and lets a test await the next call, with no sleeps.
@MainActor
final class Deliveries<Item> {
    private var received: [Item] = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var consumed = 0

    /// Everything received so far.
    var all: [Item] { received }

    func record(_ item: Item) {
        received.append(item)
        let waiter = self.waiter
        self.waiter = nil
        waiter?.resume()
    }

    /// The next item not yet returned by `next()`, waiting for it if needed.
    func next() async -> Item {
        while consumed >= received.count {
            await withCheckedContinuation { waiter = $0 }
        }
        consumed += 1
        return received[consumed - 1]
    }

    /// The number of items received but not yet returned by `next()`.
    var unread: Int { received.count - consumed }
}
