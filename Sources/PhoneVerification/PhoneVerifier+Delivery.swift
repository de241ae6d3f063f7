import Foundation

extension PhoneVerifier {
    /// The time on the verifier's clock (what status phases and reports are judged against).
    public var currentDate: Date { clock.now() }

    /// Looks a verification up with the delivery state of each SMS sent for it.
    ///
    /// ```swift
    /// if let status = try await verifier.status(id: id) {
    ///     status.phase(at: verifier.currentDate)   // "pending"
    ///     status.messages.last?.state               // .delivered
    /// }
    /// ```
    ///
    /// - Returns: The status, or `nil` when no verification has this ID (a malformed one included).
    /// - Throws: ``VerificationError`` with a store code.
    public func status(id: String) async throws(VerificationError) -> VerificationStatus? {
        guard _Random.isWellFormedID(id) else { return nil }
        return try await withStore { [store] in try await store.status(id: id) }
    }

    /// Cancels a verification: afterwards its code approves nothing (a check answers `expired`).
    ///
    /// ```swift
    /// try await verifier.cancel(id: id)   // .cancelled, or .alreadyApproved when too late
    /// ```
    ///
    /// - Returns: What the cancel did; `.notFound` for a malformed ID.
    /// - Throws: ``VerificationError`` with a store code.
    public func cancel(id: String) async throws(VerificationError) -> CancelOutcome {
        guard _Random.isWellFormedID(id) else { return .notFound }
        let now = clock.now()
        return try await withStore { [store] in try await store.cancel(id: id, now: now) }
    }

    /// Applies a delivery report (from a gateway's report URL or an SMPP receipt) to its message.
    ///
    /// Reports that come twice, late or out of order change nothing they should not (see
    /// ``DeliveryState/merged(with:)``); the result says what the report did.
    ///
    /// - Returns: What changed, or `nil` when no message has the token, the part or the provider ID.
    /// - Throws: ``VerificationError`` with a store code.
    public func applyDeliveryReport(_ report: DeliveryReport) async throws(VerificationError) -> DeliveryReportResult? {
        // A message counts once in the conversion statistics, when it first becomes final: the
        // store counts it in the report's transaction, whose transition says so even when the
        // report arrives twice or at two processes.
        let counting = conversionCounting(now: clock.now())
        return try await withStore { [store] in try await store.applyDeliveryReport(report, counting: counting) }
    }
}
