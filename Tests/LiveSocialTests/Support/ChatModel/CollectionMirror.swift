import LiveData
import LiveSocial

/// The delegate of a collection under the model check: it applies every delegate call to a copy
/// of the list, the way an app that draws from the calls would, and compares that copy with the
/// collection's ``MessageCollection/snapshot`` at each of its deliveries.
///
/// While a start or a page is under way (``loadsUnderWay`` > 0), the list may change without a
/// call (pages go to their handlers): the copy then takes the snapshot's succeeded messages, but
/// every call must still agree with the snapshot that follows it (an added or updated message is
/// listed, a deleted one is not). Otherwise the copy must equal the snapshot exactly. Anything
/// delivered after ``markDisposed()`` is a failure.
@MainActor
final class CollectionMirror: MessageCollectionDelegate {
    /// The succeeded messages, oldest first; pending and failed ones by client request id.
    private(set) var succeeded: [Message] = []
    private(set) var locals: [String: Message] = [:]
    private(set) var hasPrevious = true
    private(set) var hasNext = true
    /// Starts and pages under way, set by the run around each one.
    var loadsUnderWay = 0
    /// Whether the collection started offline and has not heard the server yet: its first load
    /// from the server, once the connection is back, reports its differences as calls but may
    /// move `hasPrevious` and `hasNext` too.
    var awaitsServer = false
    private(set) var isDisposed = false
    private(set) var hugeGaps = 0
    /// The calls heard since the last snapshot, not yet compared with one.
    private var unchecked: [MessageCollectionEvent] = []
    /// Every delegate call and every value of `events`, to compare the two.
    private(set) var delegateCalls: [MessageCollectionEvent] = []
    private(set) var eventValues: [MessageCollectionEvent] = []
    /// What went wrong, in order; the run reports the first.
    private(set) var problems: [String] = []
    /// The last calls and snapshots, for a failure report.
    private(set) var recent: [String] = []
    private let reverse: Bool
    private let userId: String
    private var observers: (Observer<MessageCollectionSnapshot?>, Observer<MessageCollectionEvent?>)?

    init(collection: MessageCollection, userId: String) {
        reverse = collection.params.reverse
        self.userId = userId
        collection.delegate = self
        let snapshotObserver = collection.snapshot.observeForever { [weak self] snapshot in
            guard let self, let snapshot else { return }
            self.received(snapshot)
        }
        let eventObserver = collection.events.observeForever { [weak self] event in
            guard let self, let event else { return }
            if self.isDisposed { self.problem("an event value after dispose: \(Self.describe(event))") }
            self.eventValues.append(event)
        }
        observers = (snapshotObserver, eventObserver)
    }

    /// Notes that the collection was disposed: nothing may arrive from now on.
    func markDisposed() { isDisposed = true }

    func problem(_ text: String) {
        if problems.count < 20 { problems.append(text) }
    }

    private func note(_ line: String) {
        recent.append(line)
        if recent.count > 40 { recent.removeFirst(recent.count - 40) }
    }

    // MARK: Delegate

    func messageCollection(_ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]) {
        heard(.added(addedMessages, context))
    }

    func messageCollection(_ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]) {
        heard(.updated(updatedMessages, context))
    }

    func messageCollection(_ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message]) {
        heard(.deleted(deletedMessages, context))
    }

    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, updatedChannel channel: Channel) {
        heard(.channelUpdated(channel, channelContext))
    }

    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, deletedChannel channelId: String) {
        heard(.channelDeleted(channelId, channelContext))
    }

    func didDetectHugeGap(_ collection: MessageCollection) {
        heard(.hugeGapDetected)
    }

    private func heard(_ event: MessageCollectionEvent) {
        if isDisposed { problem("a delegate call after dispose: \(Self.describe(event))") }
        note("call " + Self.describe(event))
        delegateCalls.append(event)
        apply(event)
        unchecked.append(event)
    }

    /// Applies a call to the copy as an app matching messages by id and client request id would.
    private func apply(_ event: MessageCollectionEvent) {
        switch event {
        case .added(let messages, let context):
            for message in messages {
                if context.sendingStatus == .succeeded {
                    if succeeded.contains(where: { $0.id == message.id }) { problem("added twice: \(Self.describe(message))") }
                    insert(message)
                } else {
                    if locals[message.clientRequestId] != nil { problem("added twice: \(Self.describe(message))") }
                    locals[message.clientRequestId] = message
                }
            }
        case .updated(let messages, let context):
            for message in messages {
                switch context.sendingStatus {
                case .succeeded:
                    let wasLocal = message.userId == userId && locals.removeValue(forKey: message.clientRequestId) != nil
                    if !wasLocal, !succeeded.contains(where: { $0.id == message.id }) {
                        problem("updated a message never added: \(Self.describe(message))")
                    }
                    insert(message)
                case .pending, .failed:
                    if locals[message.clientRequestId] == nil { problem("updated a local message never added: \(Self.describe(message))") }
                    locals[message.clientRequestId] = message
                case .canceled:
                    if locals.removeValue(forKey: message.clientRequestId) == nil { problem("canceled a message never added: \(Self.describe(message))") }
                }
            }
        case .deleted(let messages, let context):
            for message in messages {
                if context.sendingStatus == .succeeded {
                    guard let index = succeeded.firstIndex(where: { $0.id == message.id }) else {
                        problem("deleted a message never added: \(Self.describe(message))")
                        continue
                    }
                    succeeded.remove(at: index)
                } else if locals.removeValue(forKey: message.clientRequestId) == nil {
                    problem("deleted a local message never added: \(Self.describe(message))")
                }
            }
        case .hugeGapDetected:
            hugeGaps += 1
        case .channelUpdated, .channelDeleted:
            break
        }
    }

    private func insert(_ message: Message) {
        succeeded.removeAll { $0.id == message.id }
        let position = MessagePosition(of: message)
        let index = succeeded.firstIndex { MessagePosition(of: $0) > position } ?? succeeded.count
        succeeded.insert(message, at: index)
    }

    // MARK: Snapshots

    private func received(_ snapshot: MessageCollectionSnapshot) {
        if isDisposed { problem("a snapshot after dispose") }
        note("snapshot " + Self.describe(snapshot))
        let listed = reverse ? Array(snapshot.succeededMessages.reversed()) : snapshot.succeededMessages
        let calls = unchecked
        unchecked = []
        if loadsUnderWay > 0 {
            // Pages change the list without calls; each call must still be what the list shows.
            for event in calls { check(event, against: snapshot, listed: listed) }
            succeeded = listed
            hasPrevious = snapshot.hasPrevious
            hasNext = snapshot.hasNext
            locals = Self.locals(of: snapshot)
        } else {
            compare(with: snapshot, listed: listed, after: calls)
        }
    }

    private static func locals(of snapshot: MessageCollectionSnapshot) -> [String: Message] {
        Dictionary((snapshot.pendingMessages + snapshot.failedMessages).map { ($0.clientRequestId, $0) },
                   uniquingKeysWith: { first, _ in first })
    }

    private func check(_ event: MessageCollectionEvent, against snapshot: MessageCollectionSnapshot, listed: [Message]) {
        switch event {
        case .added(let messages, let context), .updated(let messages, let context):
            guard context.sendingStatus == .succeeded else { return }
            for message in messages where !listed.contains(where: { $0.id == message.id }) {
                problem("\(Self.describe(event)) but the snapshot does not list \(Self.describe(message)): \(Self.describe(listed))")
            }
        case .deleted(let messages, let context):
            guard context.sendingStatus == .succeeded else { return }
            for message in messages where listed.contains(where: { $0.id == message.id }) {
                problem("\(Self.describe(event)) but the snapshot still lists it")
            }
        case .channelUpdated, .channelDeleted, .hugeGapDetected:
            break
        }
    }

    private func compare(with snapshot: MessageCollectionSnapshot, listed: [Message], after calls: [MessageCollectionEvent]) {
        if listed != succeeded {
            problem("the calls \(calls.map(Self.describe)) lead to \(Self.describe(succeeded)) but the snapshot lists \(Self.describe(listed))")
            succeeded = listed
        }
        let mine = Self.locals(of: snapshot)
        if mine != locals {
            problem("the calls \(calls.map(Self.describe)) lead to pending and failed \(Self.describe(Array(locals.values))) but the snapshot has \(Self.describe(snapshot.pendingMessages + snapshot.failedMessages))")
            locals = mine
        }
        if snapshot.hasPrevious != hasPrevious || snapshot.hasNext != hasNext {
            if !awaitsServer { problem("hasPrevious/hasNext changed to \(snapshot.hasPrevious)/\(snapshot.hasNext) without a load") }
            hasPrevious = snapshot.hasPrevious
            hasNext = snapshot.hasNext
        }
    }

    /// Compares the calls heard since the last snapshot, and the `events` values, with the
    /// collection now: at a quiet moment, when every report has been delivered.
    /// Returns how many delegate calls it compared.
    @discardableResult
    func checkQuiet(_ collection: MessageCollection) -> Int {
        if !unchecked.isEmpty {
            var snapshot = MessageCollectionSnapshot()
            snapshot.succeededMessages = collection.succeededMessages
            snapshot.pendingMessages = collection.pendingMessages
            snapshot.failedMessages = collection.failedMessages
            snapshot.hasPrevious = collection.hasPrevious
            snapshot.hasNext = collection.hasNext
            received(snapshot)
        }
        if eventValues != delegateCalls {
            problem("events \(eventValues.map(Self.describe)) differ from the delegate calls \(delegateCalls.map(Self.describe))")
        }
        let count = delegateCalls.count
        eventValues = []
        delegateCalls = []
        return count
    }

    // MARK: Descriptions

    static func describe(_ message: Message) -> String {
        let status = switch message.sendingStatus {
        case .pending: "~"
        case .failed: "!"
        case .succeeded, .canceled: ""
        }
        let edit = message.syncState == .synced ? "" : "(\(message.syncState.rawValue))"
        return "\(status)\(message.text)\(edit)"
    }

    static func describe(_ messages: [Message]) -> String {
        "[" + messages.map { describe($0) }.joined(separator: ", ") + "]"
    }

    static func describe(_ event: MessageCollectionEvent) -> String {
        switch event {
        case .added(let messages, let context): "added \(context.sendingStatus.rawValue)/\(context.source.rawValue) \(describe(messages))"
        case .updated(let messages, let context): "updated \(context.sendingStatus.rawValue)/\(context.source.rawValue) \(describe(messages))"
        case .deleted(let messages, let context): "deleted \(context.sendingStatus.rawValue)/\(context.source.rawValue) \(describe(messages))"
        case .channelUpdated: "channel updated"
        case .channelDeleted: "channel deleted"
        case .hugeGapDetected: "huge gap"
        }
    }

    static func describe(_ snapshot: MessageCollectionSnapshot) -> String {
        "\(describe(snapshot.succeededMessages)) pending \(describe(snapshot.pendingMessages)) failed \(describe(snapshot.failedMessages)) hasPrevious \(snapshot.hasPrevious) hasNext \(snapshot.hasNext)"
    }
}
