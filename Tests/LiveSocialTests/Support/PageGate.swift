import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

extension ClientFixture {
    /// A second client of the fixture's server, signed in as ada over its own in-memory cache,
    /// whose pages (message pages and record pages, the channel list's say) wait at the returned
    /// gate once the server has answered them.
    func gatedClient() throws -> (SocialClient, PageGate) {
        let gate = PageGate()
        let stamps = Stamps()
        let client = try SocialClient(
            api: GatedAPI(base: server.connection(userId: "ada"), gate: gate), userId: "ada", cache: .inMemory,
            now: { stamps.next() })
        client.startRealtime()
        return (client, gate)
    }
}

/// Holds pages the server has already answered until the test opens it.
actor PageGate {
    private var isClosed = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func close() { isClosed = true }

    /// Returns at once while open; else waits until ``open()``.
    func pass() async {
        guard isClosed else { return }
        await withCheckedContinuation { continuation in
            held.append(continuation)
            let count = held.count
            let ready = watchers.filter { $0.count <= count }
            watchers.removeAll { $0.count <= count }
            for watcher in ready { watcher.continuation.resume() }
        }
    }

    /// Waits until `count` pages are held.
    func waitUntilHolding(_ count: Int) async {
        guard held.count < count else { return }
        await withCheckedContinuation { watchers.append((count, $0)) }
    }

    /// Lets every held page through, and the next ones too.
    func open() {
        isClosed = false
        let released = held
        held = []
        for continuation in released { continuation.resume() }
    }
}

/// The embedded server's API, with pages held at a gate after the server answered them.
private struct GatedAPI: ForwardingAPI {
    let base: EmbeddedServer.Connection
    let gate: PageGate

    func fetchPage<Record: CacheRecord>(
        _ query: SocialQuery<Record>, cursor: String?, limit: Int
    ) async throws -> RemotePage<Record> {
        let page = try await base.fetchPage(query, cursor: cursor, limit: limit)
        await gate.pass()
        return page
    }

    func fetchMessages(_ query: SocialQuery<Message>, after position: MessagePosition, limit: Int) async throws -> [Message] {
        let page = try await base.fetchMessages(query, after: position, limit: limit)
        await gate.pass()
        return page
    }

}
