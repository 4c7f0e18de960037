/// When a ``FaultProxy`` asks its rule for a script.
enum FaultTrigger: Sendable, Hashable {
    /// A client connected: the connection's number, from 1.
    case connection(Int)
    /// A client's bytes start an HTTP request: its request line (such as
    /// `POST /v1/mutations HTTP/1.1`) and the request's number among all the proxy saw, from 1.
    case request(line: String, number: Int)
}
