import Foundation
import LiveRepository
// `SocialClient.isCatchingUp`: the client-wide catch-up after a reconnection is quiet when over.
@testable import LiveSocial
import LiveSocialServer
import TestSupport

/// How a collection model sequence waits for quiet and compares the collection with the reference.
extension CollectionModelRun {
    // MARK: Settling and comparing

    /// Waits until the client applied what it was given, the collection's reads and server pages
    /// are done (page requests are let through one at a time, after the cache reads before them),
    /// and observers got their deliveries; then feeds the pages to the model.
    func settle() async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        var quietRounds = 0
        var calls = -1
        while quietRounds < 3 {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "never settled: loading \(collection.loadingStatus()), events applied through \(client.lastEventSequence) of \(deliveredSequence), catching up \(client.isCatchingUp), \(api.waitingFetchCount) page requests waiting")
            }
            _ = try await client.store.read { _ in 0 }
            quietRounds += 1
            if client.lastEventSequence < deliveredSequence || client.isCatchingUp {
                quietRounds = 0
            } else if api.waitingFetchCount > 0 {
                _ = try await client.store.read { _ in 0 }
                api.releaseFetch()
                count("serverPages")
                quietRounds = 0
            } else if collection.loadingStatus() == .loading {
                quietRounds = 0
            } else if checker.calls != calls {
                calls = checker.calls
                quietRounds = 0
            }
        }
        // A failure planned for a request that was not made (a page that was not needed) lapses.
        api.failNextFetches(0)
        for page in api.takePages() {
            model.pageArrived(page, newer: newerThanPage)
            newerThanPage = []
            if page.failed { count("failedPages") }
        }
        model.cacheJobFinished()
        if model.dataStatus == .error { count("dataStatusErrors") }
        if model.dataStatus == .local { count("dataStatusLocal") }
    }

    /// Waits (bounded) until the client has applied the connection event the test sent.
    func waitForClient(connected: Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while client.isConnected != connected {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "the client never applied the \(connected ? "connected" : "disconnected") event")
            }
            _ = try await client.store.read { _ in 0 }
        }
    }

    func settleAndCompare() async throws {
        try await settle()
        let expected = model.display
        var problems: [String] = []
        func check(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { problems.append(what()) } }

        let count = collection.count()
        check(count == expected.count, "count \(count), expected \(expected.count)")
        let read = (0 ..< count).map { collection.row($0) ?? nil }
        check(read == expected.map(Optional.some), "object(at:) gives\n    \(read.map { $0?.description ?? "nil" })")
        check(collection.row(count) == nil && collection.row(-1) == nil, "object(at:) out of range is not nil")
        let all = collection.allRows()
        check(all == expected, "allObjects() gives\n    \(all)")
        if let problem = checker.problem { problems.append("observer: " + problem) }
        if checker.calls > 0 { check(checker.rows == expected, "the observer's last delivery shows\n    \(checker.rows)") }
        if let last = checker.last, checker.calls > 0 {
            check(last.dataStatus == model.dataStatus && last.loadingStatus == model.loadingStatus,
                  "the last delivery's statuses are \(last.dataStatus)/\(last.loadingStatus)")
        }
        let canGrow = model.canGrow
        check(collection.hasNext() == (!subject.anchorAtEnd && canGrow), "hasNext is \(collection.hasNext())")
        check(collection.hasPrevious() == (subject.anchorAtEnd && canGrow), "hasPrevious is \(collection.hasPrevious())")
        check(collection.dataStatus() == model.dataStatus, "dataStatus is \(collection.dataStatus()), expected \(model.dataStatus)")
        check(collection.loadingStatus() == model.loadingStatus,
              "loadingStatus is \(collection.loadingStatus()), expected \(model.loadingStatus)")
        check(collection.hasError() == model.hasError, "error is \(collection.hasError() ? "set" : "nil")")
        for (index, observer) in observers.enumerated() {
            if let problem = observer.checker.problem { problems.append("extra observer \(index): " + problem) }
            if let endedAt = observer.endedAt {
                check(observer.checker.calls == endedAt, "extra observer \(index) was called after its token ended")
            } else if observer.checker.calls > 0 {
                check(observer.checker.rows == expected, "extra observer \(index) shows\n    \(observer.checker.rows)")
            } else {
                check(expected.isEmpty && model.dataStatus == .notExist, "extra observer \(index) was never called")
            }
        }
        coverage["changesChecked"] = checker.changesChecked
        coverage["movesDelivered"] = checker.movesSeen
        guard problems.isEmpty else {
            throw Failure(message: """
                expected (\(expected.count) rows, boundary \(model.boundary.map { "\($0)" } ?? "end"), \
                \(model.dataStatus)/\(model.loadingStatus)):
                    \(expected)
                actual:
                    \(all)
                problems:
                  - \(problems.joined(separator: "\n  - "))
                """)
        }
    }

    /// Ends a sequence the way an app recovers everything: reconnects, delivers every delayed
    /// event, catches up, resets the window; then the cache must hold the server's rows.
    func finalSync() async throws {
        if !api.isConnected {
            try await reconnect()
            try await settle()
        }
        for event in held { deliver(event, twice: false) }
        held = []
        // Applied before the catch-up: events are older than the change log that follows them.
        try await settle()
        try await catchUp()
        collection.resetPage()
        model.firstPage(fetching: true)
        try await settleAndCompare()
        var stale: [String] = []
        for record in serverCandidates() {
            guard let row = subject.row(record), row.matches else { continue }
            if let known = model.window.first(where: { $0.identity == row.identity }), known.synced, known != row {
                stale.append("\(known) on the client, \(row) on the server")
            }
        }
        if !stale.isEmpty { throw Failure(message: "after recovery the client still shows stale rows:\n  " + stale.joined(separator: "\n  ")) }
    }
}
