import Dispatch

extension LiveStore {
    /// Looks now for commits that other connections and processes made to the store's file, and
    /// returns once the live objects and collections they touched were told (on the main actor;
    /// each then reads the changed rows and calls its observers, as after the store's own writes).
    ///
    /// The store also looks on its own, when woken or as often as its ``externalChanges``
    /// setting says, and takes in what others committed whenever it writes. Call this where waiting for the next
    /// look is not good enough: when an app becomes active again after an extension wrote to the
    /// shared file, or in tests. A store in memory has nothing to look for and returns at once.
    public func checkForExternalChanges() async {
        await withCheckedContinuation { continuation in
            queue.async {
                let found = self.externalChangesOnQueue()
                let hub = self.hub
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        if let found { hub.publish(found.change, prepared: found.prepared) }
                        continuation.resume()
                    }
                }
            }
        }
    }

    /// Subscribes the store to the process's watcher of shared files (see
    /// ``ExternalChangeMonitor``), or returns nil (in memory, or with
    /// ``ExternalChangeDetection/off``).
    func startWatching() -> ExternalChangeMonitor.Subscription? {
        guard case .file(let url) = location else { return nil }
        return ExternalChangeMonitor.shared.subscribe(
            file: url, detection: externalChanges, lookHere: { [weak self] in self?.checkHere() }
        ) { [weak self] in
            self?.scheduleCheck()
        }
    }

    /// On the file's wake-up channel's reading thread, while this store is the only one in the
    /// process it wakes: looks now, on `queue` but from this thread (`queue.sync` runs the block
    /// here when the queue is idle), without first waking the queue's own thread. A look
    /// scheduled already serves instead. Never waits for anything but this store's queue, whose
    /// blocks never wait for the reading thread: ``close()`` stops watching before it queues its own.
    private func checkHere() {
        guard claimCheck() else { return }
        queue.sync(execute: claimedCheck)
    }

    /// Queues one look for other connections' commits, unless one is queued already: a burst of
    /// wake-ups costs one look, which finds every commit made before it.
    private func scheduleCheck() {
        guard claimCheck() else { return }
        queue.async(execute: claimedCheck)
    }

    /// Whether the caller is to run the next look (`claimedCheck`): false while one is on its way.
    private func claimCheck() -> Bool {
        lock.withLock {
            defer { checkScheduled = true }
            return !checkScheduled
        }
    }

    /// On `queue`: the look a caller of `claimCheck` claimed. Commits made from here on are found
    /// by this look or by the next one claimed.
    private func claimedCheck() {
        lock.withLock { checkScheduled = false }
        lookAndPublish()
    }

    /// On `queue`: looks for other connections' commits and sends what it found, with the reads
    /// prepared for the live collections, to the main actor in one hop.
    private func lookAndPublish() {
        guard let found = externalChangesOnQueue() else { return }
        let hub = self.hub
        DispatchQueue.main.async { MainActor.assumeIsolated { hub.publish(found.change, prepared: found.prepared) } }
    }

    /// After a commit that changed something: wakes the other stores and servers watching the
    /// file, in this process and in others.
    func announceCommit() {
        guard case .file(let url) = location else { return }
        ExternalChangeMonitor.shared.announce(file: url, from: subscription)
    }

    /// On `queue`, outside a transaction: what other connections committed since the last look,
    /// or nil when nothing, with what the live collections concerned read of it (see
    /// ``ChangePreparers``). A damaged file is replaced as for any read, and the change says so.
    ///
    /// With collections to prepare for, the look and their reads share one read transaction:
    /// the reads see exactly the commits the change names, so the change and the reads reach
    /// the main actor together, in one hop, in order with the store's own commits.
    private func externalChangesOnQueue() -> (change: StoreChange, prepared: [ObjectIdentifier: any Sendable])? {
        guard let changeLog, !connection.isClosed else { return nil }
        do {
            guard !preparers.isEmpty else {
                guard let change = try changeLog.collect(connection: connection), !change.isEmpty else { return nil }
                recordForMarks(change)
                return (change, [:])
            }
            try connection.execute("BEGIN")
            defer { if !connection.isInAutocommitMode { try? connection.execute("COMMIT") } }
            guard let change = try changeLog.collect(connection: connection), !change.isEmpty else { return nil }
            recordForMarks(change)
            return (change, preparers.prepare(change, connection: connection))
        } catch {
            return recoverIfDamaged(error).map { ($0, [:]) }
        }
    }

    /// On `queue`: runs `body` in a read transaction that first publishes what other connections
    /// committed, so that `body` sees no commit whose change is not on its way to the main
    /// actor ahead of the caller's completion.
    ///
    /// A live collection relies on it: it reads only the rows a change touched and keeps the
    /// others as it read them, which holds only if every commit its reads see is announced to
    /// it, as the store's own commits always are (they run on this queue).
    func readAnnounced<T>(_ body: (SQLiteConnection) throws -> T, on connection: SQLiteConnection) throws -> T {
        guard let changeLog, connection.isInAutocommitMode else { return try body(connection) }
        try connection.execute("BEGIN")
        defer { if !connection.isInAutocommitMode { try? connection.execute("COMMIT") } }
        if let change = try changeLog.collect(connection: connection), !change.isEmpty {
            recordForMarks(change)
            publishOnMain(change)
        }
        return try body(connection)
    }

    /// On `queue`, inside a write transaction before its writes: adds what other connections
    /// committed since the last look to `change`.
    func collectExternalChanges(into change: inout StoreChange) throws {
        guard let changeLog, let found = try changeLog.collect(connection: connection) else { return }
        // Recorded at once: the write's own `changes(in:since:)` sees them.
        recordForMarks(found)
        change.merge(found) { $0.union($1) }
    }
}
