import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo users' first passwords: made at random on a server's first start, printed once and
/// written to `<data>/demo-credentials` (mode 0600, one `user password` pair a line).
public struct DemoCredentials: Sendable {
    /// The users and their passwords, in order.
    public var pairs: [(userId: String, password: String)]

    /// Random passwords for `userIds`.
    public init(userIds: [String]) {
        pairs = userIds.map { ($0, Self.randomPassword()) }
    }

    /// The name of the file in the data folder.
    public static let fileName = "demo-credentials"

    /// 16 characters from a 32-character alphabet without look-alikes: 80 random bits.
    static func randomPassword() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        let bytes = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        // 32 letters: each byte's low five bits pick one without bias.
        return String(bytes.map { alphabet[Int($0 & 31)] })
    }

    /// The file's text: one `user password` pair a line.
    public var fileText: String {
        pairs.map { "\($0.userId) \($0.password)\n" }.joined()
    }

    /// Writes the file into `folder`, readable and writable by its owner only (created with
    /// mode 0600, never wider for a moment). Fails if the file exists.
    public func save(into folder: URL) throws {
        let path = folder.appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerSetupError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes = Array(fileText.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                throw ServerSetupError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(written)
        }
        guard fsync(descriptor) == 0 else {
            throw ServerSetupError("cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
