import Foundation

/// The status line and header fields of an answer (header names lowercased), with its body
/// when the whole answer was read.
struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    var status: Int
    /// The header fields, names lowercased.
    var headers: [String: String]
    /// The body (empty for the head of a stream).
    var body: Data

    init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200..<300).contains(status) }
}
