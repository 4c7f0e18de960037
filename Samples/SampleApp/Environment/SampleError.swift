/// Why the sample cannot start, in words a person can act on.
public enum SampleError: Error, Hashable, CustomStringConvertible {
    /// The data folder cannot be created or written.
    case dataFolder(String, reason: String)
    /// The embedded server's database cannot be opened (damaged, or written by a newer version).
    case serverDatabase(String, reason: String)
    /// The `--user` is not one of the server's users.
    case unknownUser(String, known: [String])
    /// `--reset` while these users' apps run on the data folder.
    case signedIn([String])
    /// The network server refused the sign-in (a wrong user id or password), with its reason.
    case signInRefused(String, reason: String)
    /// The network server could not be reached, or failed, at sign-in.
    case serverUnreachable(String, reason: String)

    /// The error in words, with what to do about it.
    public var description: String {
        switch self {
        case .dataFolder(let path, let reason):
            "cannot use the data folder \(path): \(Self.sentence(reason)) Choose another with --data or LIVEDATA_SAMPLE_DATA."
        case .serverDatabase(let path, let reason):
            "cannot open the embedded server's database \(path): \(Self.sentence(reason)) Start over with --reset, or choose another folder with --data."
        case .unknownUser(let user, let known):
            "there is no user '\(user)'; sign in as one of: \(known.joined(separator: ", "))."
        case .signedIn(let users):
            "cannot start over while \(users.joined(separator: ", ")) \(users.count == 1 ? "is" : "are") signed in on this data folder: quit \(users.count == 1 ? "that app" : "those apps") first."
        case .signInRefused(let server, let reason):
            "\(server) refused the sign-in: \(Self.sentence(reason)) Check --user and the password (--password or LIVEDATA_PASSWORD); a new server prints its demo users' passwords once and keeps them in <data>/demo-credentials."
        case .serverUnreachable(let server, let reason):
            "cannot sign in to \(server): \(Self.sentence(reason)) Is livedata-server running there?"
        }
    }

    /// `reason` ending with one full stop.
    private static func sentence(_ reason: String) -> String {
        var text = reason
        while text.hasSuffix(".") { text.removeLast() }
        return text + "."
    }
}
