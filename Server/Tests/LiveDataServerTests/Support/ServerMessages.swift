import LiveSocial

/// The server's messages of a channel as `api`'s user reads them, paged to the end: how many
/// copies of each text, and of each client request id.
struct ServerMessages {
    var byText: [String: Int] = [:]
    var byRequestId: [String: Int] = [:]

    init(in channelId: String, api: any SocialAPI) async throws {
        var cursor: String?
        repeat {
            let page = try await api.fetchPage(
                SocialQuery<Message>.messages(channelId: channelId, includeDeleted: true), cursor: cursor, limit: 100)
            for message in page.records {
                byText[message.text, default: 0] += 1
                byRequestId[message.clientRequestId, default: 0] += 1
            }
            cursor = page.nextCursor
        } while cursor != nil
    }
}
