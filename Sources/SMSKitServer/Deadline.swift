/// Runs `body`, throwing `timeoutError` when it has not finished after `timeout` (the body is
/// then cancelled).
func withDeadline<T: Sendable>(
    _ timeout: Duration, timeoutError: ServiceError, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw timeoutError }
        return value
    }
}
