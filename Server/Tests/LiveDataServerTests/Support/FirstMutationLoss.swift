import Synchronization

/// Loses the answer of the first mutation request that goes through a ``FaultProxy``, with a
/// script of steps, and counts the mutation requests it sees: the first, and the client's resends.
final class FirstMutationLoss: Sendable {
    private let count = Mutex(0)

    /// The mutation requests seen so far.
    var requests: Int { count.withLock { $0 } }

    /// Sets `proxy`'s rule: `loss` on the answer to the first `POST /v1/mutations`, nothing on the rest.
    init(through proxy: FaultProxy, _ loss: [FaultStep]) {
        proxy.setRule { trigger in
            guard case .request(let line, _) = trigger, line.hasPrefix("POST /v1/mutations") else { return nil }
            let isFirst = self.count.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            return isFirst ? FaultScript(toClient: loss) : nil
        }
    }
}
