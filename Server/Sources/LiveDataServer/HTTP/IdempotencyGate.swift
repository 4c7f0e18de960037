/// Lets one request per (user, idempotency key) run at a time: a repeat that arrives while the
/// first is still running waits for it and gets its answer instead of running beside it.
///
/// The answers themselves are kept by the social store, in the transaction of the mutation's
/// changes (`EmbeddedServer.Connection.perform(_:idempotencyKey:encode:)`), so that a crash
/// can never keep one without the other.
actor IdempotencyGate {
    private var running: [String: Task<[UInt8], any Error>] = [:]

    /// The answer for `key` sent by `userId`: the running request's, or `perform`'s.
    ///
    /// `perform` runs in a task of its own: a client that hangs up does not cancel a change
    /// already on its way, and its retry then finds the answer.
    func answer(
        userId: String, key: String, perform: @escaping @Sendable () async throws -> [UInt8]
    ) async throws -> [UInt8] {
        let slot = userId + "\u{0}" + key
        if let task = running[slot] { return try await task.value }
        let task = Task { try await perform() }
        running[slot] = task
        defer { running[slot] = nil }
        return try await task.value
    }
}
