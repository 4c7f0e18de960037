/// The answer to `GET /v1/sequence`: `{"latestSequence":..}`.
public struct SequenceBody: Sendable, Hashable, Codable {
    /// The server's latest sequence number.
    public var latestSequence: Int64

    /// Creates a sequence body.
    public init(latestSequence: Int64) {
        self.latestSequence = latestSequence
    }
}
