import LiveSocialNetwork
import Synchronization

/// The network APIs a test signed in, kept alive until it signs them out.
final class APIKeeper: Sendable {
    private let apis = Mutex<[NetworkSocialAPI]>([])

    func keep(_ api: NetworkSocialAPI) {
        apis.withLock { $0.append(api) }
    }

    var all: [NetworkSocialAPI] { apis.withLock { $0 } }
}
