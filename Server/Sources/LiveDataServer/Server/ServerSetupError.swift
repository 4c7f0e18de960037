/// Why the server could not start: a data folder it cannot use, a port it cannot bind.
public struct ServerSetupError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for a person.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
