/// Applies each (user, idempotency key) once: a repeat gets the stored answer, and a repeat that
/// arrives while the first is still running waits for it instead of running beside it.
actor IdempotencyGate {
    private var running: [String: Task<[UInt8], any Error>] = [:]

    /// The answer for `key` sent by `userId`: the stored one, the running one's, or `perform`'s
    /// (then stored in `store`). A failed `perform` stores nothing, so a retry runs again.
    ///
    /// `perform` runs in a task of its own: a client that hangs up does not cancel a change
    /// already on its way, and its retry then finds the answer.
    func answer(
        userId: String, key: String, store: IdentityStore,
        perform: @escaping @Sendable () async throws -> [UInt8]
    ) async throws -> [UInt8] {
        let slot = userId + "\u{0}" + key
        if let task = running[slot] { return try await task.value }
        if let stored = try store.storedAnswer(userId: userId, key: key) { return stored }
        let task = Task {
            let answer = try await perform()
            try store.storeAnswer(answer, userId: userId, key: key)
            return answer
        }
        running[slot] = task
        defer { running[slot] = nil }
        return try await task.value
    }
}
