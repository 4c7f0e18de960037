import TestSupport
import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// What a live object observer saw in one delivery.
struct ObjectDelivery<Record: CacheRecord> {
    var dataStatus: DataStatus
    var loadingStatus: LoadingStatus
    var snapshot: Record?
    var error: (any Error)?
}

extension LiveObject {
    /// Observes the live object into a `Deliveries` log.
    func record() -> (Deliveries<ObjectDelivery<Record>>, NotificationToken) {
        let log = Deliveries<ObjectDelivery<Record>>()
        let token = observe { object, error in
            log.record(ObjectDelivery(dataStatus: object.dataStatus, loadingStatus: object.loadingStatus,
                                      snapshot: object.snapshot, error: error))
        }
        return (log, token)
    }

    /// Waits for deliveries until one satisfies `condition`, and returns it.
    func next(
        in log: Deliveries<ObjectDelivery<Record>>, where condition: (ObjectDelivery<Record>) -> Bool
    ) async throws -> ObjectDelivery<Record> {
        try await log.next(where: condition)
    }
}

extension LiveCollection {
    /// Waits for the server's first page (unless it is shown already), then pages with
    /// `nextPage()` until `hasNext` is false.
    ///
    /// - Returns: the delivery of every page, the first page's (or the current state) included, in order.
    func loadAllPages(in log: Deliveries<CollectionDelivery<Record>>) async throws -> [CollectionDelivery<Record>] {
        let first = if dataStatus == .fresh && loadingStatus == .loaded {
            CollectionDelivery(dataStatus: dataStatus, loadingStatus: loadingStatus, records: allObjects(), change: nil, error: error)
        } else {
            try await next(in: log) { $0.dataStatus == .fresh && $0.loadingStatus == .loaded }
        }
        var pages = [first]
        while hasNext {
            log.skipUnread()
            nextPage()
            pages.append(try await next(in: log) { $0.loadingStatus == .loaded })
        }
        return pages
    }
}

extension ClientFixture {
    /// Waits until a change the server made has reached the client: the live object for
    /// `id` shows a snapshot satisfying `condition`.
    func waitFor<Record: CacheRecord>(
        _ type: Record.Type, id: String, where condition: @escaping (Record?) -> Bool
    ) async throws {
        let object = LiveObject<Record>(store: client.store, id: id, fetch: nil)
        let (log, token) = object.record()
        _ = try await object.next(in: log) { condition($0.snapshot) }
        withExtendedLifetime((object, token)) {}
    }
}

/// A backend's API with real-time events the test sends itself (or, with `.silent`, none at
/// all, not even the connection state, as for a moment after ``SocialClient/startRealtime()``).
struct ScriptedEventsAPI<Base: SocialAPI>: ForwardingAPI {
    let base: Base
    let stream: AsyncStream<SocialEvent>

    func events() -> AsyncStream<SocialEvent> { stream }
}

extension AsyncStream where Element == SocialEvent {
    /// A stream that never yields and never ends.
    static var silent: AsyncStream<SocialEvent> { AsyncStream { _ in } }
}
