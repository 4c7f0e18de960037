/// A chat collection the client tells about the connection. Committed changes reach chat
/// collections through the store's change hub instead (see ``ChatChange``).
@MainActor
protocol ChatConnectionListener: AnyObject {
    /// Called when the connection comes back up: the moment to catch up with the change log.
    func clientDidConnect()
    /// Called when the connection drops.
    func clientDidDisconnect()
}
