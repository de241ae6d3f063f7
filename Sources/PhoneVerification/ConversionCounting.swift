import Foundation

/// How a store counts a change in the conversion statistics inside the transaction that makes the
/// change: an approval in ``VerificationStore/check(_:)`` (``CheckRequest/conversion``), a
/// message's final delivery report in ``VerificationStore/applyDeliveryReport(_:counting:)``.
///
/// The change and its count then commit together, once: a report that arrives twice or at two
/// processes, or concurrent checks of one code, count exactly what they change, and the count costs
/// no commit of its own. The verifier makes it: only it knows the numbering plan that names a
/// number's region, range and carrier (``PhoneVerifier/conversionKeys(e164:)``).
public struct ConversionCounting: Sendable {
    /// The conversion window (``ConversionTracking/window``) the counters are hit in.
    public var window: Duration
    /// The time the counters are hit at (the verifier's clock).
    public var now: Date
    /// The counter keys a change of `e164` hits for `metric`, in the order to hit them (the
    /// verifier's is region, range, carrier, so that concurrent transactions lock counter rows in
    /// one order); empty to count nothing. Stores call it inside their transaction (the in-memory
    /// store under its lock): it must not call the store.
    public var keys: @Sendable (_ e164: String, _ metric: ConversionMetric) -> [String]

    /// Creates a counting rule.
    public init(window: Duration, now: Date,
                keys: @escaping @Sendable (_ e164: String, _ metric: ConversionMetric) -> [String]) {
        self.window = window
        self.now = now
        self.keys = keys
    }
}

extension CheckRequest {
    /// The counter keys a store hits (in ``ConversionCounting/window``) with an outcome of this
    /// check: the approval's, when ``conversion`` is set; none for any other outcome.
    public func conversionKeys(for outcome: CheckOutcome) -> [String] {
        guard case .approved(let e164) = outcome, let conversion else { return [] }
        return conversion.keys(e164, .approved)
    }
}

extension DeliveryReportResult {
    /// What this report counts in the conversion statistics: `delivered` or `failed` when it made
    /// the message final (expired counts as failed), once per message; `nil` otherwise (a
    /// duplicate, a stale report, one part of several, an intermediate state).
    public var conversionMetric: ConversionMetric? {
        guard messageBecameFinal else { return nil }
        return state == .delivered ? .delivered : .failed
    }

    /// The counter keys a store hits with this result for a message to `e164`.
    public func conversionKeys(e164: String, counting: ConversionCounting?) -> [String] {
        guard let counting, let metric = conversionMetric else { return [] }
        return counting.keys(e164, metric)
    }
}
