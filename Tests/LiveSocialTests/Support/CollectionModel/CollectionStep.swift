import LiveSocial

/// One step of a collection model sequence. Picks are raw random numbers, mapped to the
/// candidates of the moment when the step runs, so a seed replays the same sequence.
enum CollectionStep: CustomStringConvertible {
    /// What a local mutation or a write of the cache's other writer does.
    enum Mutation: String { case create, update, delete }

    /// Another user (or the signed-in user on another device) adds a row on the server; some
    /// rows do not match the query.
    case serverInsert(user: Int, matching: Bool)
    /// A server-side change of a row's content.
    case serverUpdate(pick: Int)
    /// A server-side (soft) deletion.
    case serverDelete(pick: Int)
    /// A change of a row's sort key on the server (a message moves its channel to the top).
    case serverMove(pick: Int)
    /// Delivers the first `count` delayed events, some twice.
    case releaseHeld(count: Int, duplicating: Bool)
    /// The connection drops: delayed events and those that follow are lost.
    case disconnect
    /// The connection comes back, and the client catches up through the change log.
    case reconnect
    /// A local mutation through the repository, refused (or failed) when `refusal` is given.
    case local(Mutation, pick: Int, refusal: SocialAPIError?)
    /// `nextPage()` (start anchor) or `previousPage()` (end anchor), its server page failing or not.
    case grow(failing: Bool)
    /// `resetPage()`, its server page failing or not.
    case reset(failing: Bool)
    /// A page request (a grow, or a reset) whose answer, served by the server, reaches the client
    /// only after a server-side change (`change`: 0 insert, 1 update, 2 delete) and its event.
    case eventDuringPage(growing: Bool, change: Int, pick: Int)
    case addObserver
    case invalidateObserver(pick: Int)
    case releaseObserver(pick: Int)
    /// A write by a second client over the same cache file, picked up by external change detection.
    case externalWrite(Mutation, pick: Int)
    /// The server's manual clock moves on.
    case advanceClock(seconds: Int)

    var description: String {
        switch self {
        case .serverInsert(let user, let matching): "serverInsert(user: \(user), matching: \(matching))"
        case .serverUpdate(let pick): "serverUpdate(\(pick))"
        case .serverDelete(let pick): "serverDelete(\(pick))"
        case .serverMove(let pick): "serverMove(\(pick))"
        case .releaseHeld(let count, let duplicating): "releaseHeld(\(count), duplicating: \(duplicating))"
        case .disconnect: "disconnect"
        case .reconnect: "reconnect"
        case .local(let mutation, let pick, let refusal): "local(\(mutation.rawValue), \(pick), refusal: \(refusal.map { "\($0)" } ?? "none"))"
        case .grow(let failing): "grow(failing: \(failing))"
        case .reset(let failing): "reset(failing: \(failing))"
        case .eventDuringPage(let growing, let change, let pick):
            "eventDuringPage(\(growing ? "grow" : "reset"), \(["insert", "update", "delete"][change]), \(pick))"
        case .addObserver: "addObserver"
        case .invalidateObserver(let pick): "invalidateObserver(\(pick))"
        case .releaseObserver(let pick): "releaseObserver(\(pick))"
        case .externalWrite(let mutation, let pick): "externalWrite(\(mutation.rawValue), \(pick))"
        case .advanceClock(let seconds): "advanceClock(\(seconds) s)"
        }
    }

    /// The counter a step adds to.
    var coverageName: String {
        switch self {
        case .serverInsert: "serverInserts"
        case .serverUpdate: "serverUpdates"
        case .serverDelete: "serverDeletes"
        case .serverMove: "serverMoves"
        case .releaseHeld: "releases"
        case .disconnect: "disconnects"
        case .reconnect: "reconnects"
        case .local(_, _, let refusal): refusal == nil ? "localMutations" : "refusedLocalMutations"
        case .grow: "grows"
        case .reset: "resets"
        case .eventDuringPage: "eventsDuringPages"
        case .addObserver: "observersAdded"
        case .invalidateObserver: "observersInvalidated"
        case .releaseObserver: "observersReleased"
        case .externalWrite: "externalWrites"
        case .advanceClock: "clockAdvances"
        }
    }
}
