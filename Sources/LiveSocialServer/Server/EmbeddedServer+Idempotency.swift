import LiveSocial

extension EmbeddedServer {
    /// How long an idempotent answer stays stored, in seconds: a day.
    static let idempotencyLifetime: Double = 86_400

    /// Applies a mutation once per (user, key): the first call applies it and stores its answer,
    /// encoded by `encode`, in the same transaction as its changes; a repeat gets that answer and
    /// changes nothing. A crash can therefore never keep the changes and lose the answer (or the
    /// reverse). A refused mutation stores nothing, so a retry runs again.
    func servePerform(
        _ mutation: SocialMutation, as userId: String, idempotencyKey key: String,
        encode: @Sendable (SocialMutationResult) throws -> [UInt8]
    ) async throws -> [UInt8] {
        try await admit(.mutation)
        let answer = try transaction { events -> [UInt8] in
            if let stored = try database.idempotentAnswer(key: key, userId: userId) { return stored }
            let now = try timestamp()
            let result = try write(at: now, into: &events) { try engine.apply(mutation, as: userId, in: &$0) }
            let answer = try encode(result)
            try database.storeIdempotentAnswer(
                answer, key: key, userId: userId, at: now, keepingAfter: now - Self.idempotencyLifetime)
            return answer
        }
        if controls.dropsResponse() { throw SocialAPIError.offline }
        return answer
    }
}
