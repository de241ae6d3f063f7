import PhoneVerification

/// A sender that counts what the wrapped sender accepted, by encoding and segment count (the
/// one place that sees both).
struct MeteredSender: SMSSender {
    let base: any SMSSender
    let metrics: ServiceMetrics

    func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS {
        let submitted = try await base.submit(sms)
        metrics.smsSent(encoding: sms.encoding.rawValue, segments: max(1, sms.parts.count))
        return submitted
    }
}
