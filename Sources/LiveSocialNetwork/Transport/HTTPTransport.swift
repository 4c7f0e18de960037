import Foundation

/// The HTTP layer under ``NetworkSocialAPI``: sends requests and opens streams.
///
/// `URLSessionTransport` is the real one; the tests drive the session, renewal, reconnection
/// and error mapping through a fake one, without a server.
protocol HTTPTransport: Sendable {
    /// Sends a request and returns the whole answer, whatever its status. Throws when no answer
    /// came (a `URLError` for connection failures and timeouts).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Opens a long-lived request: the stream yields the answer's head first, then its body in
    /// chunks as they arrive; it finishes when the answer ends and throws when the connection
    /// fails. Ending the iteration (or cancelling the iterating task) cancels the request.
    func openStream(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error>
}

/// A piece of a streamed answer.
enum StreamPart: Sendable, Hashable {
    /// The status and header fields, first.
    case head(HTTPResponse)
    /// The next bytes of the body.
    case bytes(Data)
}
