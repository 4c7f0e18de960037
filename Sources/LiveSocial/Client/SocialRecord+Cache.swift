import LiveRepository

extension SocialRecord {
    /// Writes the server's copy of the record into the cache. A message the signed-in user
    /// (`ownerId`) sent replaces the pending copy stored under its client request id, so it is
    /// never shown twice; other users' messages have no pending copy here, and their client
    /// request ids must not touch this user's rows.
    func store(in transaction: CacheTransaction, ownerId: String) throws {
        if case .message(let message) = self, message.userId == ownerId, message.id != message.clientRequestId {
            try transaction.delete(Message.self, id: message.clientRequestId)
        }
        try transaction.upsert(base)
    }
}

extension SocialRecord {
    /// Whether this record from the server is the server's copy of `local`, a post or comment
    /// created locally under a local id: same author, place and text.
    func isServerCopy(of local: any CacheRecord) -> Bool {
        switch (self, local) {
        case (.post(let post), let local as Post):
            post.authorId == local.authorId && post.targetType == local.targetType && post.targetId == local.targetId
                && post.text == local.text
        case (.comment(let comment), let local as Comment):
            comment.authorId == local.authorId && comment.postId == local.postId && comment.parentId == local.parentId
                && comment.text == local.text
        default:
            false
        }
    }
}

extension SocialRecordKey {
    /// Removes the record from the cache.
    func remove(from transaction: CacheTransaction) throws {
        try transaction.delete(kind.recordType, id: id)
    }
}
