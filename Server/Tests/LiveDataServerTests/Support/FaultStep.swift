/// One step of a ``FaultProxy`` script: what happens to the next bytes of one direction.
///
/// A direction plays its steps in order against the bytes that flow through it; once its steps
/// are played, bytes pass unchanged. `delay`, `drip`, `cut` and `reset` wait for the next bytes
/// to arrive; `stall` starts at once.
enum FaultStep: Sendable, Hashable, CustomStringConvertible {
    /// The next `bytes` bytes pass unchanged.
    case pass(bytes: Int)
    /// The next bytes are held `milliseconds` after they arrive, then pass.
    case delay(milliseconds: Int)
    /// Nothing is read for `milliseconds`: the sender's bytes wait in the kernel's buffers.
    case stall(milliseconds: Int)
    /// The next `bytes` bytes pass `chunk` at a time, `pauseMilliseconds` apart.
    case drip(bytes: Int, chunk: Int, pauseMilliseconds: Int)
    /// On the next bytes (dropped), both sides are closed with a FIN: a clean cut.
    case cut
    /// On the next bytes (dropped), both sides are reset with an RST (`SO_LINGER` 0, then close).
    case reset

    var description: String {
        switch self {
        case .pass(let bytes): "pass \(bytes) B"
        case .delay(let milliseconds): "delay \(milliseconds) ms"
        case .stall(let milliseconds): "stall \(milliseconds) ms"
        case .drip(let bytes, let chunk, let pause): "drip \(bytes) B, \(chunk) B every \(pause) ms"
        case .cut: "cut"
        case .reset: "reset"
        }
    }
}
