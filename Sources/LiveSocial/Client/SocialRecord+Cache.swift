import LiveRepository

extension SocialRecord {
    /// Writes the server's copy of the record into the cache. A message replaces the pending
    /// copy that has its client request id, so a sent message is never shown twice.
    func store(in transaction: CacheTransaction) throws {
        if case .message(let message) = self, message.id != message.clientRequestId {
            try transaction.delete(Message.self, id: message.clientRequestId)
        }
        try transaction.upsert(base)
    }
}

extension SocialRecordKey {
    /// Removes the record from the cache.
    func remove(from transaction: CacheTransaction) throws {
        try transaction.delete(kind.recordType, id: id)
    }
}
