import Foundation
import LiveSocial
import LiveSocialWire

/// Keeps the event stream open: connects, reads events, notices a silent stream, and reconnects
/// with backoff until the session ends.
///
/// Each change is published as it arrives; the connection's ups and downs are published as
/// ``LiveSocial/SocialEvent/connected`` and ``LiveSocial/SocialEvent/disconnected`` and set on
/// the ``ConnectionStates``.
///
/// After a reconnection, nothing is resumed from a last event id: `SocialClient` catches up
/// from the change log when it sees `connected` again (see the module's article for why).
actor RealtimeConnection {
    /// How one attempt at the stream ended.
    enum Outcome: Sendable, Equatable {
        /// The stream was connected, then ended, failed or fell silent.
        case dropped
        /// The stream never reached `connected`.
        case failed
        /// The server refused the token and a renewed one is ready.
        case renewed
        /// The session ended.
        case signedOut
    }

    private let endpoint: Endpoint
    private let transport: any HTTPTransport
    private let configuration: NetworkConfiguration
    private let keeper: SessionKeeper
    private let broadcaster: EventBroadcaster
    private let states: ConnectionStates
    private var random: SeededRandom
    private var loop: Task<Void, Never>?

    init(
        endpoint: Endpoint, transport: any HTTPTransport, configuration: NetworkConfiguration, keeper: SessionKeeper,
        broadcaster: EventBroadcaster, states: ConnectionStates
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.configuration = configuration
        self.keeper = keeper
        self.broadcaster = broadcaster
        self.states = states
        var seeder = SystemRandomNumberGenerator()
        random = SeededRandom(seed: configuration.randomSeed ?? seeder.next())
    }

    /// Starts the connection loop; calling it again does nothing.
    func start() {
        guard loop == nil else { return }
        loop = Task { await self.run() }
    }

    /// Stops the loop and closes the stream.
    func stop() {
        loop?.cancel()
        loop = nil
    }

    private func run() async {
        var attempt = 0
        var renewedInARow = 0
        states.set(.connecting)
        while !Task.isCancelled {
            if attempt > 0 {
                let delay = configuration.backoff.delay(forAttempt: attempt, using: &random)
                let nextTry = configuration.clock.now.addingTimeInterval(delay)
                states.set(.reconnecting(attempt: attempt, nextTry: nextTry))
                do { try await configuration.clock.sleep(until: nextTry) } catch { return }
            }
            switch await connectOnce() {
            case .dropped:
                broadcaster.setConnected(false)
                attempt = 1
                renewedInARow = 0
            case .failed:
                attempt += 1
                renewedInARow = 0
            case .renewed:
                renewedInARow += 1
                // A token refused right after its renewal is a server problem: back off.
                if renewedInARow > 1 { attempt += 1 }
            case .signedOut:
                return
            }
        }
    }

    /// Opens the stream once and reads it until it ends, fails, or stays silent too long.
    private func connectOnce() async -> Outcome {
        let token: String
        do { token = try await keeper.token() } catch { return .signedOut }
        var request = endpoint.request(
            "GET", WireRoute.events, timeout: configuration.silenceLimit + configuration.requestTimeout)
        request.headers["Accept"] = WireRoute.eventStreamMediaType
        request.headers[WireRoute.authorizationHeader] = "Bearer \(token)"
        let clock = configuration.clock
        let activity = StreamActivity(openedAt: clock.now)
        let stream = transport.openStream(request)
        let silenceLimit = configuration.silenceLimit
        let reading = await withTaskGroup(of: ReadEnd.self) { group in
            group.addTask { [broadcaster, states] in
                await Self.read(stream, activity: activity, clock: clock, broadcaster: broadcaster, states: states)
            }
            group.addTask {
                await Self.watch(activity, clock: clock, silenceLimit: silenceLimit)
            }
            group.addTask { [states] in
                // The session ended elsewhere (a refused renewal, signing out): close the stream.
                for await state in states.updates() {
                    if case .signedOut = state { return .ended }
                }
                return .ended
            }
            let first = await group.next() ?? .ended
            group.cancelAll()
            return first
        }
        if case .signedOut = states.current { return .signedOut }
        if Task.isCancelled { return activity.wasConnected ? .dropped : .failed }
        switch reading {
        case .unauthorized:
            do {
                _ = try await keeper.renew(replacing: token)
                return .renewed
            } catch {
                // A refused renewal ended the session; any other failure is tried again later.
                return await keeper.session == nil ? .signedOut : .failed
            }
        case .ended, .silent:
            return activity.wasConnected ? .dropped : .failed
        }
    }

    /// How reading a stream ended.
    private enum ReadEnd: Sendable {
        case ended
        case unauthorized
        case silent
    }

    /// Reads the stream: the head must be 200 (401 asks for a renewal), then every chunk counts
    /// as a sign of life and its events are published.
    private static func read(
        _ stream: AsyncThrowingStream<StreamPart, any Error>, activity: StreamActivity, clock: any NetworkClock,
        broadcaster: EventBroadcaster, states: ConnectionStates
    ) async -> ReadEnd {
        var parser = ServerSentEventParser()
        do {
            for try await part in stream {
                switch part {
                case .head(let head):
                    if head.status == 401 { return .unauthorized }
                    guard head.status == 200 else { return .ended }
                case .bytes(let bytes):
                    activity.touch(clock.now)
                    for event in parser.parse(bytes) {
                        guard handle(event, activity: activity, broadcaster: broadcaster, states: states) else { return .ended }
                    }
                }
            }
        } catch {
            // A failed connection ends the stream like a closed one.
        }
        return .ended
    }

    /// Publishes one stream event; false when it cannot be read (the stream is dropped, and the
    /// catch-up after the reconnection brings what it carried).
    private static func handle(
        _ event: ServerSentEvent, activity: StreamActivity, broadcaster: EventBroadcaster, states: ConnectionStates
    ) -> Bool {
        switch event.type {
        case "connected":
            activity.markConnected()
            broadcaster.setConnected(true)
            states.set(.connected)
            return true
        case "created", "updated", "deleted":
            guard activity.wasConnected,
                let decoded = try? SocialWire.decode(SocialEvent.self, from: Data(event.data.utf8)),
                decoded.sequence != nil
            else { return false }
            broadcaster.publish(decoded)
            return true
        default:
            // Events this client does not know (a newer server's) are skipped.
            return true
        }
    }

    /// Returns once the stream has received nothing for `silenceLimit`: heartbeats stopped.
    private static func watch(_ activity: StreamActivity, clock: any NetworkClock, silenceLimit: Double) async -> ReadEnd {
        while true {
            let deadline = activity.last.addingTimeInterval(silenceLimit)
            do { try await clock.sleep(until: deadline) } catch { return .ended }
            if clock.now >= activity.last.addingTimeInterval(silenceLimit) { return .silent }
        }
    }
}
