import Synchronization

/// The faults of one seed: for each request through the ``FaultProxy``, a script drawn from a
/// seeded generator (about half the requests pass untouched), in the order the requests arrive.
///
/// A cut on the way to the client comes before the answer's first byte: FoundationNetworking
/// (Swift 6.3.1, Linux) stops the process with "Transfer completed, but there's no response"
/// when a connection closes cleanly in the middle of an answer's head
/// (swift-corelibs-foundation issue 5285). Resets may land anywhere.
final class RandomFaults: Sendable {
    private let state: Mutex<(random: SplitMix64, drawn: [String: Int])>

    init(seed: UInt64) {
        state = Mutex((SplitMix64(seed: seed), [:]))
    }

    /// How many of each kind of fault were drawn, by name.
    var drawn: [String: Int] { state.withLock { $0.drawn } }

    /// The script of the next request.
    func script() -> FaultScript? {
        state.withLock { state -> FaultScript? in
            var random = state.random
            defer { state.random = random }
            let script: (String, FaultScript)?
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<10: script = nil
            case 10: script = ("delay", FaultScript(toClient: [.delay(milliseconds: Int.random(in: 1...80, using: &random))]))
            case 11: script = ("drip to client", FaultScript(toClient: [.drip(
                bytes: Int.random(in: 1...600, using: &random), chunk: Int.random(in: 1...32, using: &random),
                pauseMilliseconds: Int.random(in: 0...4, using: &random))]))
            case 12: script = ("drip to server", FaultScript(toServer: [.drip(
                bytes: Int.random(in: 1...600, using: &random), chunk: Int.random(in: 1...32, using: &random),
                pauseMilliseconds: Int.random(in: 0...4, using: &random))]))
            case 13: script = ("stall to server", FaultScript(toServer: [.stall(milliseconds: Int.random(in: 20...400, using: &random))]))
            case 14: script = ("stall to client", FaultScript(toClient: [.stall(milliseconds: Int.random(in: 20...400, using: &random))]))
            case 15, 16: script = ("cut before the answer", FaultScript(toClient: [.cut]))
            case 17: script = ("reset in the answer", FaultScript(toClient: [.pass(bytes: Int.random(in: 0...400, using: &random)), .reset]))
            case 18: script = ("cut in the request", FaultScript(toServer: [.pass(bytes: Int.random(in: 0...300, using: &random)), .cut]))
            default: script = ("reset in the request", FaultScript(toServer: [.pass(bytes: Int.random(in: 0...300, using: &random)), .reset]))
            }
            guard let script else { return nil }
            state.drawn[script.0, default: 0] += 1
            return script.1
        }
    }
}
