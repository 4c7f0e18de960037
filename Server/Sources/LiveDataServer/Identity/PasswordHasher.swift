import Crypto
import CryptoExtras
import Foundation

/// Salts and hashes passwords with scrypt, a slow and memory-hard key derivation function, and
/// checks a password against a stored hash in constant time.
///
/// A stored hash reads `scrypt$<rounds>$<blockSize>$<parallelism>$<salt>$<key>` (salt and key in
/// base64), so that a hash made with one cost keeps verifying after the cost changes.
public struct PasswordHasher: Sendable {
    /// scrypt's cost parameter N (a power of two): memory and time grow with it.
    public var rounds: Int
    /// scrypt's block size r.
    public var blockSize: Int
    /// scrypt's parallelism p.
    public var parallelism: Int

    /// The cost for real use: N = 2^15, r = 8, p = 1 (32 MiB and tens of milliseconds a hash).
    public static let standard = PasswordHasher(rounds: 1 << 15, blockSize: 8, parallelism: 1)
    /// A cheap cost for tests, which sign in many times: N = 2^10, r = 8, p = 1.
    public static let fastForTests = PasswordHasher(rounds: 1 << 10, blockSize: 8, parallelism: 1)

    /// A hasher with the given scrypt parameters; `rounds` must be a power of two above 1.
    public init(rounds: Int, blockSize: Int, parallelism: Int) {
        precondition(rounds > 1 && rounds & (rounds - 1) == 0, "scrypt's rounds must be a power of two")
        precondition(blockSize > 0 && parallelism > 0, "scrypt's block size and parallelism must be positive")
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    static let saltByteCount = 16
    static let keyByteCount = 32

    /// A new salted hash of `password`, with a fresh random salt.
    public func hash(_ password: String) throws -> String {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        let key = try derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return ["scrypt", String(rounds), String(blockSize), String(parallelism),
                Data(salt).base64EncodedString(), Data(key).base64EncodedString()].joined(separator: "$")
    }

    /// Whether `password` matches `stored` (a hash made by ``hash(_:)``); false for a malformed hash.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt",
              let rounds = Int(parts[1]), let blockSize = Int(parts[2]), let parallelism = Int(parts[3]),
              rounds > 1, rounds & (rounds - 1) == 0, blockSize > 0, parallelism > 0,
              let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5])),
              let key = try? derive(password, salt: Array(salt), rounds: rounds, blockSize: blockSize,
                                    parallelism: parallelism)
        else { return false }
        return ConstantTime.equal(key, Array(expected))
    }

    /// Spends the time of one verification without a stored hash, so that signing in as an
    /// unknown user takes as long as with a wrong password (no user enumeration by timing).
    public func burnVerification(_ password: String) {
        _ = try? derive(password, salt: [UInt8](repeating: 0, count: Self.saltByteCount), rounds: rounds,
                        blockSize: blockSize, parallelism: parallelism)
    }

    private func derive(_ password: String, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: Self.keyByteCount, rounds: rounds,
            blockSize: blockSize, parallelism: parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
