import LiveRepository
import LiveSocial

/// The server's messages of a channel as `api`'s user reads them, paged to the end: how many
/// copies of each text, and of each client request id.
///
/// A page whose request ends `offline` (the fault suites' clients give up after 3 s, and with the
/// whole server suite on two cores a request once waited longer, in CI) is asked for again, until
/// `patience` has passed: a read changes nothing, and what these checks count is what the server
/// stored, not how fast it answered.
struct ServerMessages {
    var byText: [String: Int] = [:]
    var byRequestId: [String: Int] = [:]

    init(in channelId: String, api: any SocialAPI, patience: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + patience
        var cursor: String?
        while true {
            let page: RemotePage<Message>
            do {
                page = try await api.fetchPage(
                    SocialQuery<Message>.messages(channelId: channelId, includeDeleted: true), cursor: cursor, limit: 100)
            } catch SocialAPIError.offline where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                continue
            }
            for message in page.records {
                byText[message.text, default: 0] += 1
                byRequestId[message.clientRequestId, default: 0] += 1
            }
            guard let next = page.nextCursor else { break }
            cursor = next
        }
    }
}
