import Foundation
import LiveSocial
import LiveSocialServer

/// `client-send-offline <cache-file> <server-file> <user> <channel> <text>`: a client (as an app
/// extension would be) on a shared cache file sends a message while its server is unreachable,
/// so the message stays pending in the cache.
///
/// It opens an `EmbeddedServer` of its own on `server-file`, disconnected, and a `SocialClient`
/// as `user` on `cache-file`; sends `text` to `channel`, which fails with the offline error and
/// leaves the message pending; prints `pending <client request id>`, closes the cache and exits
/// 0 (1 when the send did something else).
enum ClientSendOfflineCommand {
    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 5 else {
            ServerIO.complain("usage: client-send-offline <cache-file> <server-file> <user> <channel> <text>")
            return 64
        }
        let (cache, serverFile) = (URL(fileURLWithPath: arguments[0]), URL(fileURLWithPath: arguments[1]))
        let (userId, channelId, text) = (arguments[2], arguments[3], arguments[4])
        let client: SocialClient
        do {
            let server = try EmbeddedServer(location: .file(serverFile))
            server.disconnect()
            client = try SocialClient(api: server.connection(userId: userId), userId: userId, cache: .file(cache))
        } catch {
            ServerIO.complain("cannot open the files: \(error)")
            return 1
        }
        do {
            _ = try await client.messages.send(text, to: channelId)
            ServerIO.complain("the send reached a disconnected server")
            return 1
        } catch SocialAPIError.offline {
            // Expected: the message stays pending.
        } catch {
            ServerIO.complain("the send failed otherwise: \(error)")
            return 1
        }
        let pending = try? await client.store.read { connection in
            try connection.query("SELECT clientRequestId FROM messages WHERE syncState <> 'synced'") { $0.string(0) }
        }
        await client.store.close()
        guard let pending, pending.count == 1 else {
            ServerIO.complain("expected one pending message, found \(pending.map(String.init(describing:)) ?? "none")")
            return 1
        }
        ServerIO.say("pending \(pending[0])")
        return 0
    }
}
