import Dispatch

/// Waits until every block already enqueued on the main dispatch queue has run.
///
/// The main queue is FIFO, so a block enqueued now runs after the ones enqueued before it:
/// deterministic, with no sleeping or polling.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}
