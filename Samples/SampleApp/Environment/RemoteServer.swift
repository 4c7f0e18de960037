import Foundation

/// A `livedata-server` on the network that the sample signs in to instead of running its
/// embedded server (`--server URL`).
///
/// The password is kept only in memory, for the sign-in; the session token that the sign-in
/// returns is what the app then uses.
public struct RemoteServer: Sendable, Hashable {
    /// The server's base address, such as `http://127.0.0.1:8080`.
    public var url: URL
    /// The signed-in user's password.
    public var password: String

    /// Creates the description of a server to sign in to.
    public init(url: URL, password: String) {
        self.url = url
        self.password = password
    }

    /// The name of the server's folder in a data folder: its host and port, with every character
    /// that is not a letter, a digit, a dot or a hyphen replaced, so that two servers never share
    /// a cache and the name is a valid file name everywhere.
    public var folderName: String {
        let host = url.host ?? "server"
        let port = url.port.map { "-\($0)" } ?? ""
        let name = "\(host)\(port)".map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return String(name)
    }
}
