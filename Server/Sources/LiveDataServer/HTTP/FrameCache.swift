import LiveSocial
import NIOCore
import Synchronization

/// The Server-Sent Events frames of the latest change events, encoded once for every stream
/// they go to: a message in a channel of a thousand members streams is one JSON encoding, not a
/// thousand.
///
/// A change event is known by its sequence number: the server publishes each change once, the
/// same value to every stream whose user may see it, so one number is one frame. Connection
/// events (no sequence) are not kept.
final class FrameCache: Sendable {
    /// Frames kept: enough for every stream to find the frames of a burst of sends.
    static let capacity = 4_096

    private struct Entries {
        var frames: [Int64: ByteBuffer] = [:]
        var order: [Int64] = []
        var oldest = 0
    }

    private let entries = Mutex(Entries())

    /// The frame of `event`: the kept one, else `encode`'s (then kept).
    func frame(of event: SocialEvent, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        guard let sequence = event.sequence else { return try encode() }
        if let frame = entries.withLock({ $0.frames[sequence] }) { return frame }
        let frame = try encode()
        entries.withLock { entries in
            guard entries.frames.updateValue(frame, forKey: sequence) == nil else { return }
            if entries.order.count < Self.capacity {
                entries.order.append(sequence)
            } else {
                entries.frames[entries.order[entries.oldest]] = nil
                entries.order[entries.oldest] = sequence
                entries.oldest = (entries.oldest + 1) % Self.capacity
            }
        }
        return frame
    }
}
