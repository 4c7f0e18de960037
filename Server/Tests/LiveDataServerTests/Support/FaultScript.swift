/// The steps a ``FaultProxy`` plays on one connection, per direction.
struct FaultScript: Sendable, Hashable, CustomStringConvertible {
    /// The steps of the bytes from the client to the server.
    var toServer: [FaultStep] = []
    /// The steps of the bytes from the server to the client.
    var toClient: [FaultStep] = []

    var description: String {
        "to server [\(toServer.map(\.description).joined(separator: ", "))], "
            + "to client [\(toClient.map(\.description).joined(separator: ", "))]"
    }
}
