import ArgumentParser
import Foundation
import LiveDataPostgres
import LiveDataServer

/// `livedata-server`: serves a data folder's social data over HTTP until stopped (SIGINT or SIGTERM).
@main
struct LiveDataServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livedata-server",
        abstract: "Serves swift-livedata's social domain over HTTP and Server-Sent Events.",
        discussion: """
            On the first start with an empty data folder it creates the demo users with random \
            passwords, prints them once and writes them to <data>/demo-credentials (mode 0600). \
            When ready it prints one line: listening on http://HOST:PORT
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "The folder of the server's files (created if missing).")
    var data: String

    @Option(help: "How long a session token works, in seconds.")
    var tokenLifetime: Double = 3_600

    @Option(help: "Seconds between heartbeats on a quiet event stream.")
    var heartbeat: Double = 15

    @Option(help: "Requests a second one token may make over time.")
    var rateLimit: Double = 100

    @Option(help: "Requests one token may make at once.")
    var rateBurst: Double = 600

    @Option(help: "The largest request body accepted, in bytes.")
    var maxBody = 64 * 1_024

    @Option(help: ArgumentHelp(
        "Keep the social data in this PostgreSQL database, shared by every instance started with it: postgres://user[:password]@host[:port]/database (the password may come from PGPASSWORD instead).",
        valueName: "url"))
    var postgres: String?

    func validate() throws {
        if let postgres {
            do {
                _ = try PostgresLocation(url: postgres)
            } catch {
                throw ValidationError("--postgres: \(error)")
            }
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive") }
        guard heartbeat > 0 else { throw ValidationError("--heartbeat must be positive") }
        guard rateLimit > 0, rateBurst >= 1 else {
            throw ValidationError("--rate-limit must be positive and --rate-burst at least 1")
        }
        guard maxBody >= 1_024 else { throw ValidationError("--max-body must be at least 1024") }
    }

    func run() async throws {
        var configuration = ServerConfiguration(dataFolder: URL(fileURLWithPath: data, isDirectory: true))
        configuration.host = host
        configuration.port = port
        configuration.tokenLifetime = tokenLifetime
        configuration.heartbeatInterval = .milliseconds(Int64(heartbeat * 1_000))
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = rateBurst
        configuration.maxBodyBytes = maxBody
        configuration.postgres = try postgres.map { try PostgresLocation(url: $0) }
        let server = try await LiveDataServer.open(configuration)
        do {
            try await server.runUntilSignalled()
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }
}
