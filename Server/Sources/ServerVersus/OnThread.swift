import Foundation

/// Runs `body` on a thread of its own (blocking sockets stay off Swift's few cooperative
/// threads, which the servers use) and returns its result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
