import Foundation
import LiveSocial
import LiveSocialServer

/// `server-send <file> <user> <channel> <count> [request-prefix] [pause-ms]`: sends messages through an
/// `EmbeddedServer` of its own on a shared server file, and reports the events it sees.
///
/// It opens the server (watching the file every millisecond), subscribes to its events and
/// prints `ready`; after a line `go` on standard input it sends `count` messages as `user` in
/// `channel` with client request ids `<request-prefix>-<n>` (`child-<n>` by default), `pause-ms`
/// milliseconds apart (none by default; a pause paces a latency measurement), printing
/// `sent <message id> <client request id>` for each accepted one, or `failed <n> <error>`, then
/// `sent-all`. Meanwhile it prints `event <sequence>` for every change event, in the order
/// received. After a line `through <sequence>` it waits for the event of that sequence (the
/// test bounds the wait), prints `done` and exits 0, or 1 when a send failed.
enum ServerSendCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 4, let count = Int(arguments[3]) else {
            ServerIO.complain("usage: server-send <file> <user> <channel> <count> [request-prefix] [pause-ms]")
            return 64
        }
        let (file, userId, channelId) = (URL(fileURLWithPath: arguments[0]), arguments[1], arguments[2])
        let prefix = arguments.count > 4 ? arguments[4] : "child"
        let pause = arguments.count > 5 ? Int(arguments[5]) ?? 0 : 0
        let server: EmbeddedServer
        do {
            server = try EmbeddedServer(location: .file(file))
        } catch {
            ServerIO.complain("cannot open \(file.path): \(error)")
            return 1
        }
        let connection = server.connection(userId: userId)
        let seen = SeenSequence()
        let events = connection.events()
        let listener = Task {
            for await event in events {
                guard let sequence = event.sequence else { continue }
                ServerIO.say("event \(sequence)")
                seen.record(sequence)
            }
        }
        defer { listener.cancel() }
        ServerIO.say("ready")
        guard await ServerIO.waitForLine(startingWith: "go") != nil else { return 1 }
        var failed = false
        for number in 0..<count {
            if pause > 0, number > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
            let send = SocialMutation.sendText("\(userId) \(number)", channelId: channelId, clientRequestId: "\(prefix)-\(number)")
            do {
                let message = try await connection.perform(send).first(Message.self)
                ServerIO.say("sent \(message?.id ?? "?") \(prefix)-\(number)")
            } catch {
                ServerIO.say("failed \(number) \(error)")
                failed = true
            }
        }
        ServerIO.say("sent-all")
        guard let text = await ServerIO.waitForLine(startingWith: "through"), let through = Int64(text) else { return 1 }
        await seen.wait(for: through)
        ServerIO.say("done")
        return failed ? 1 : 0
    }
}

/// The highest event sequence seen so far, and a wait for one.
///
/// `@unchecked Sendable`: `lock` guards `value` and `waiter`; the waiter is resumed after unlocking.
private final class SeenSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    private var waiter: (sequence: Int64, continuation: CheckedContinuation<Void, Never>)?

    func record(_ sequence: Int64) {
        lock.lock()
        value = max(value, sequence)
        var ready: CheckedContinuation<Void, Never>?
        if let waiter, value >= waiter.sequence {
            ready = waiter.continuation
            self.waiter = nil
        }
        lock.unlock()
        ready?.resume()
    }

    /// Returns once `sequence` has been seen (the test that runs this process bounds the wait).
    func wait(for sequence: Int64) async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if value >= sequence {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = (sequence, continuation)
                lock.unlock()
            }
        }
    }
}
