/// Runs `body`, throwing `CancellationError` if it has not finished after `seconds`: a bound
/// that only fails a test that would otherwise hang, never a way to order events.
public func withTimeout<T: Sendable>(
    seconds: Int = 20, _ body: @escaping @MainActor @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw CancellationError()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
