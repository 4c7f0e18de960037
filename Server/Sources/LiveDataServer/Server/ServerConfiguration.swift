import Foundation
import LiveDataPostgres

/// How a ``LiveDataServer`` listens, where it keeps its data, and its limits.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: 127.0.0.1 (this machine only) by default.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (the server prints which).
    public var port: Int = 8080
    /// The folder of the server's files: `server.sqlite` (the social data), `identity.sqlite`
    /// (users' password hashes, sessions, idempotency keys) and, after the first start,
    /// `demo-credentials`.
    public var dataFolder: URL
    /// How long a session token works, in seconds (renew it before).
    public var tokenLifetime: Double = 3_600
    /// How often an event stream sends a `: heartbeat` comment when it has nothing else to send.
    public var heartbeatInterval: Duration = .seconds(15)
    /// Requests a second one token may make over time (a token bucket's refill rate).
    public var rateLimitPerSecond: Double = 100
    /// Requests one token may make at once after being idle (the bucket's size).
    public var rateLimitBurst: Double = 600
    /// Sign-in attempts a second one user id may make over time: passwords cannot be guessed fast.
    public var signInPerSecond: Double = 1
    /// Sign-in attempts one user id may make at once.
    public var signInBurst: Double = 20
    /// Sign-in attempts a second over all user ids: each costs a password hash, so a flood of
    /// sign-ins under made-up user ids cannot take the server's CPU.
    public var signInTotalPerSecond: Double = 10
    /// Sign-in attempts at once over all user ids.
    public var signInTotalBurst: Double = 20
    /// The largest request body accepted, in bytes; larger ones get 413.
    public var maxBodyBytes: Int = 64 * 1_024
    /// The longest text (a message, a post, a comment, a name...) accepted, in characters.
    public var maxTextLength: Int = 10_000
    /// The longest id or idempotency key accepted, in characters.
    public var maxIdLength: Int = 200
    /// The largest page or change-log limit a request may ask for.
    public var maxLimit: Int = 500
    /// The PostgreSQL database that keeps the social data, shared by every instance started
    /// with it (`--postgres`); nil keeps it in `server.sqlite` in the data folder. With it, the
    /// data folder still keeps the users, passwords and sessions (`identity.sqlite`): instances
    /// on one machine share that by sharing the folder (see the README).
    public var postgres: PostgresLocation?
    /// How long a mutation with an `Idempotency-Key` is run again, 100 ms apart, after its
    /// transaction lost the PostgreSQL connection (the database restarting), before its request
    /// gets the 500: 15 s by default, longer than a restart takes on a loaded machine. A client
    /// that gives up sooner (`LiveSocialNetwork` after 10 s) sends the key again and gets the
    /// same answer, waiting for the run under way rather than starting a second one.
    public var lostConnectionRetryLimit: Duration = .seconds(15)
    /// The password hashing cost for new passwords.
    public var passwordHasher: PasswordHasher = .standard
    /// The time in seconds since 1970, for token expiry and rate limits; tests pass a clock they move.
    public var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Where the server writes the lines a person reads: the demo users' passwords on the first
    /// start, and `listening on http://HOST:PORT`. Standard output, unbuffered, by default.
    public var print: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A configuration keeping its data in `dataFolder`, with the defaults above.
    public init(dataFolder: URL) {
        self.dataFolder = dataFolder
    }
}
