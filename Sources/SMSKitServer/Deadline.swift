import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs `body`, throwing `timeoutError` when it has not finished after `timeout` (the body is
/// then cancelled).
///
/// The deadline is a task scheduled on an event loop of NIO's shared group and cancelled when
/// the body finishes, which removes it at once. A sleeping child task (`Task.sleep`) would do
/// too, but a cancelled sleep keeps its timer until the time it was due: under load that is a
/// timer for every request of the last `timeout`, memory that grows with the request rate.
func withDeadline<T: Sendable>(
    _ timeout: Duration, timeoutError: ServiceError, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let work = Task { try await body() }
    let timedOut = NIOLockedValueBox(false)
    let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
    let deadline = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(nanoseconds)) {
        timedOut.withLockedValue { $0 = true }
        work.cancel()
    }
    defer { deadline.cancel() }
    do {
        return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
    } catch {
        if timedOut.withLockedValue({ $0 }) { throw timeoutError }
        throw error
    }
}
