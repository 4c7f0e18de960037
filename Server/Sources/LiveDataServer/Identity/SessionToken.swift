import Crypto
import Foundation

/// A session token: 32 random bytes from the system's cryptographically secure generator, in
/// unpadded base64url. The server keeps only its SHA-256 digest, so a copy of the identity
/// file gives no usable token.
public struct SessionToken: Sendable, Hashable {
    /// The token as the client sends it in `Authorization: Bearer <token>`.
    public let value: String

    /// A new random token.
    public static func random() -> SessionToken {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return SessionToken(value: Self.base64URL(bytes))
    }

    /// A token as presented by a client (not checked: see ``IdentityStore/userId(forToken:)``).
    public init(value: String) {
        self.value = value
    }

    /// The SHA-256 digest of the token, in hexadecimal: the key the server stores and looks it up by.
    public var digest: String {
        SHA256.hash(data: Array(value.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
