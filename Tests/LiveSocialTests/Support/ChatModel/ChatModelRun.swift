import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// One seeded sequence of the chat model check: a real `SocialClient` over a cache file and an
/// `EmbeddedServer` over a file of its own, on a `ManualClock`, driven by random steps. After
/// each step it waits until everything settled, then checks the collection against the server's
/// data read with plain SQL (`ServerReference`) and against its own delegate calls
/// (`CollectionMirror`).
@MainActor
final class ChatModelRun {
    nonisolated static let channelId = "room"
    nonisolated static let me = "ada"
    nonisolated static let others = ["alan", "grace"]
    nonisolated static let epoch = 1_700_000_000.0

    let seed: UInt64
    var coverage = ChatModelCoverage()
    var history: [String] = []
    var generator: ChatStepGenerator
    let folder: TemporaryDirectory
    let clock: ManualClock
    let server: EmbeddedServer
    let reference: ServerReference
    var client: SocialClient
    var api: TrackingAPI
    var collection: MessageCollection
    var mirror: CollectionMirror
    /// Disposed collections' mirrors, which must stay silent.
    var retired: [CollectionMirror] = []
    var opening: ChatModelStep.Opening
    var connected = true
    /// Sends and loads started and not finished.
    var unfinished = 0
    /// The server's latest sequence when the client last (re)connected: events of later writes
    /// must reach the client before the system counts as settled.
    var sequenceAtConnect: Int64 = 0
    /// Whether the collection has loaded from the server once (it has a sync point).
    var collectionSynced = false
    /// The signed-in user's sends, by text: accepted ones, refused ones, and the failed ones removed.
    var ownTexts: Set<String> = []
    var refusedTexts: Set<String> = []
    var removedTexts: Set<String> = []
    var requestIdOfText: [String: String] = [:]
    /// The text of the user's edits the server refused, by message id.
    var failedEdits: [String: String] = [:]
    /// Messages other users changed while the client was offline.
    var changedOffline: Set<String> = []
    var lastLoadError: (any Error)?

    private init(seed: UInt64, folder: TemporaryDirectory, clock: ManualClock, server: EmbeddedServer,
                 reference: ServerReference, generator: ChatStepGenerator, opening: ChatModelStep.Opening) throws {
        self.seed = seed
        self.clock = clock
        self.folder = folder
        self.server = server
        self.reference = reference
        self.generator = generator
        self.opening = opening
        (client, api) = try Self.makeClient(server: server, clock: clock, cache: folder.file("cache.sqlite"))
        collection = client.createMessageCollection(channelId: Self.channelId)
        mirror = CollectionMirror(collection: collection, userId: Self.me)
    }

    /// Plays `steps` steps of `seed`; returns the failure report, or nil.
    static func play(seed: UInt64, steps: Int, replay: String) async throws -> (failure: String?, coverage: ChatModelCoverage) {
        var generator = ChatStepGenerator(seed: seed)
        let folder = try TemporaryDirectory()
        let serverFile = folder.file("server.sqlite")
        let clock = ManualClock()
        let server = try EmbeddedServer(location: .file(serverFile), clock: clock, epoch: epoch, externalChanges: .off)
        try await server.createUser(id: me, displayName: "Ada")
        for user in others { try await server.createUser(id: user, displayName: user.capitalized) }
        try await server.createChannel(id: channelId, displayName: "Room", type: .conversation, memberIds: [me] + others)
        server.rejectMessages(containing: "spam", reason: "no spam")
        let authors = [me] + others
        for index in 0 ..< generator.initialMessageCount() {
            let author = authors[generator.initialAuthor(of: authors.count)]
            try await server.perform(.sendText("i\(index)", channelId: channelId, clientRequestId: "initial-\(index)"), as: author)
        }
        let opening = generator.opening()
        let run = try ChatModelRun(
            seed: seed, folder: folder, clock: clock, server: server, reference: try ServerReference(file: serverFile),
            generator: generator, opening: opening)
        let failure = await run.play(steps: steps, replay: replay)
        await run.finish()
        return (failure, run.coverage)
    }

    // MARK: Playing

    private func play(steps: Int, replay: String) async -> String? {
        var index = 0
        do {
            client.startRealtime()
            try await waitForConnection(true)
            sequenceAtConnect = try await server.latestSequence()
            try await open(opening, replacing: false)
            try await quiesce()
            try await checkStartWindow(rowsBefore: nil)
            try await check()
            coverage.sequences = 1
            while index < steps {
                index += 1
                clock.advance(by: .seconds(1))
                let step = generator.next(connected: connected)
                history.append(step.description)
                try await perform(step)
                try await quiesce()
                try await handleHugeGap()
                try await check()
                coverage.steps += 1
            }
            return nil
        } catch let failure as ChatModelFailure {
            return report(failure, stepIndex: index, replay: replay)
        } catch {
            return report(ChatModelFailure(what: "an unexpected error", expected: "none", actual: "\(error)"),
                          stepIndex: index, replay: replay)
        }
    }

    private func report(_ failure: ChatModelFailure, stepIndex: Int, replay: String) -> String {
        let steps = history.enumerated().map { "  \($0.offset + 1). \($0.element)" }.suffix(30)
        return """
            MessageCollection disagrees with the model: seed \(seed), step \(stepIndex) (\(history.last ?? "opening \(opening)")).
            \(failure.what)
              expected: \(failure.expected)
              actual:   \(failure.actual)
            Opened with \(opening). Recent steps:
            \(steps.joined(separator: "\n"))
            Recent calls and snapshots:
            \(mirror.recent.suffix(15).map { "  " + $0 }.joined(separator: "\n"))
            Replay: \(replay)
            """
    }

    private func finish() async {
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
        reference.close()
    }

    static func makeClient(server: EmbeddedServer, clock: ManualClock, cache: URL) throws -> (SocialClient, TrackingAPI) {
        let api = TrackingAPI(base: server.connection(userId: me))
        let client = try SocialClient(api: api, userId: me, cache: .file(cache)) {
            let offset = clock.now.offset.components
            return epoch + Double(offset.seconds) + Double(offset.attoseconds) / 1e18
        }
        return (client, api)
    }
}
