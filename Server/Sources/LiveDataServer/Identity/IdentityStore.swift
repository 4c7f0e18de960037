import Foundation
import LiveRepository
import Synchronization

/// Who may sign in, and the sessions they hold: a SQLite file in the server's data folder.
///
/// Users have a password hash (see ``PasswordHasher``). Sessions are stored by the SHA-256
/// digest of their token, never the token itself; a token works until it expires or is
/// revoked. (Idempotent answers are kept by the social store, with the changes they answer;
/// files made before that lose their `idempotency` table when opened.)
///
/// SQLite, not a flat file: sign-ins, renewals and revocations from many connections at once
/// each need a small durable write, which SQLite makes atomic without rewriting the whole file.
/// The connection is used under `connection`'s lock only, and password hashing (the slow part)
/// runs outside it.
public final class IdentityStore: Sendable {
    private let connection: Mutex<SQLiteConnection>
    private let hasher: PasswordHasher
    private let now: @Sendable () -> Double
    /// How long a new token works, in seconds.
    public let tokenLifetime: Double

    /// Opens (creating if needed) the identity database at `location`.
    ///
    /// - Parameters:
    ///   - location: the database file, or `.inMemory`.
    ///   - hasher: the password hashing cost for new passwords.
    ///   - tokenLifetime: how long a token works, in seconds.
    ///   - now: the time in seconds since 1970; tests pass a clock they move.
    public init(
        location: SQLiteConnection.Location, hasher: PasswordHasher = .standard, tokenLifetime: Double = 3_600,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        precondition(tokenLifetime > 0, "a token lifetime must be positive")
        let database = try SQLiteConnection(location: location)
        try database.executeScript("""
            CREATE TABLE IF NOT EXISTS users (
                id TEXT PRIMARY KEY NOT NULL,
                password_hash TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS sessions (
                token_digest TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                expires_at REAL NOT NULL,
                revoked INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at);
            DROP INDEX IF EXISTS idempotency_by_age;
            DROP TABLE IF EXISTS idempotency;
            """)
        self.connection = Mutex(database)
        self.hasher = hasher
        self.tokenLifetime = tokenLifetime
        self.now = now
    }

    /// The ids of every user who can sign in, in order.
    public func userIds() throws -> [String] {
        try connection.withLock { try $0.query("SELECT id FROM users ORDER BY id") { $0.string(0) } }
    }

    /// Sets (or replaces) the password of `userId`.
    public func setPassword(_ password: String, for userId: String) throws {
        let hash = try hasher.hash(password)
        try connection.withLock {
            try $0.execute(
                "INSERT INTO users (id, password_hash) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash",
                [.text(userId), .text(hash)])
        }
    }

    /// A new session when `password` is the password of `userId`, else nil.
    ///
    /// An unknown user takes as long to refuse as a wrong password.
    public func signIn(userId: String, password: String) throws -> Session? {
        let stored = try connection.withLock {
            try $0.queryFirst("SELECT password_hash FROM users WHERE id = ?", [.text(userId)]) { $0.string(0) }
        }
        guard let stored else {
            hasher.burnVerification(password)
            return nil
        }
        guard hasher.verify(password, against: stored) else { return nil }
        return try openSession(for: userId)
    }

    /// A new session for the user of `token` when `token` still works, else nil. `token` keeps
    /// working until it expires.
    public func renew(_ token: SessionToken) throws -> Session? {
        guard let userId = try userId(forToken: token) else { return nil }
        return try openSession(for: userId)
    }

    /// The user `token` acts as, or nil when it is unknown, expired or revoked.
    public func userId(forToken token: SessionToken) throws -> String? {
        let digest = token.digest
        let row = try connection.withLock {
            try $0.queryFirst(
                "SELECT token_digest, user_id, expires_at, revoked FROM sessions WHERE token_digest = ?",
                [.text(digest)]
            ) { (digest: $0.string(0), userId: $0.string(1), expiresAt: $0.double(2), revoked: $0.bool(3)) }
        }
        // The lookup is by digest, so its timing tells nothing about the token; the stored digest
        // is compared again in constant time all the same.
        guard let row, ConstantTime.equal(Array(row.digest.utf8), Array(digest.utf8)),
              !row.revoked, row.expiresAt > now()
        else { return nil }
        return row.userId
    }

    /// Revokes `token`: it stops working at once. Unknown tokens are ignored.
    public func revoke(_ token: SessionToken) throws {
        try connection.withLock {
            try $0.execute("UPDATE sessions SET revoked = 1 WHERE token_digest = ?", [.text(token.digest)])
        }
    }

    private func openSession(for userId: String) throws -> Session {
        let token = SessionToken.random()
        let time = now()
        let session = Session(token: token, userId: userId, expiresAt: time + tokenLifetime)
        try connection.withLock { database in
            try database.transaction {
                // Expired sessions are of no use to anyone: drop them as new ones open.
                try database.execute("DELETE FROM sessions WHERE expires_at <= ?", [.real(time)])
                try database.execute(
                    "INSERT INTO sessions (token_digest, user_id, expires_at) VALUES (?, ?, ?)",
                    [.text(token.digest), .text(userId), .real(session.expiresAt)])
            }
        }
        return session
    }
}
