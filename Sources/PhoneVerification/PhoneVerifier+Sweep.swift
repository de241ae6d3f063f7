import Foundation

extension PhoneVerifier {
    /// Deletes the verifications that expired more than ``VerificationConfiguration/retention``
    /// ago and the rate-limit windows that hold nothing any more.
    ///
    /// The stores never delete on their own: call this periodically (``sweepPeriodically(every:onError:)``
    /// does; `smskit serve` runs it in the background), or the SQLite and PostgreSQL tables keep
    /// every verification, phone number included. It runs without the store timeout: a first sweep
    /// of a large table may take a while.
    ///
    /// ```swift
    /// let removed = try await verifier.removeExpired()
    /// ```
    ///
    /// - Returns: How many verifications and windows were deleted.
    /// - Throws: ``VerificationError`` with a store code when the store fails.
    @discardableResult
    public func removeExpired() async throws(VerificationError) -> Int {
        let now = clock.now()
        do {
            return try await store.removeExpired(now: now, retention: configuration.retention)
        } catch let error as VerificationStoreError {
            throw VerificationError(error.kind == .timeout ? .storeTimeout : .storeUnavailable,
                                    "the sweep of expired verifications failed: \(error.message)")
        } catch {
            throw VerificationError(.storeUnavailable, "the sweep of expired verifications failed")
        }
    }

    /// Calls ``removeExpired()`` now and then every `interval` until the task is cancelled; a failed
    /// sweep is reported to `onError` and tried again at the next one.
    ///
    /// ```swift
    /// let sweeper = Task { await verifier.sweepPeriodically(every: .seconds(300)) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time between two sweeps.
    ///   - onError: Called with each failed sweep's error (e.g. to log it).
    public func sweepPeriodically(every interval: Duration,
                                  onError: (@Sendable (VerificationError) -> Void)? = nil) async {
        while !Task.isCancelled {
            do {
                try await removeExpired()
            } catch {
                onError?(error)
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }
}
