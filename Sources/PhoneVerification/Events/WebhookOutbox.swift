import Foundation

/// An event claimed for delivery to one webhook.
public struct WebhookDelivery: Sendable, Hashable {
    /// The event.
    public var event: VerificationEvent
    /// Deliveries tried before this one.
    public var attempts: Int
    /// When the event was queued for the webhook (the retry period counts from here).
    public var queuedAt: Date

    /// A claimed delivery.
    public init(event: VerificationEvent, attempts: Int, queuedAt: Date) {
        self.event = event
        self.attempts = attempts
        self.queuedAt = queuedAt
    }
}

/// What became of one delivery attempt.
public enum WebhookDeliveryResult: Sendable, Hashable {
    /// The receiver answered 2xx: the delivery is done (and removed).
    case delivered
    /// It failed; try again at the date given (the event holds back its verification's later events).
    case retry(at: Date)
    /// It failed for the last time (the retry period is over): kept as dead until the retention
    /// sweep, and no longer holding back its verification's later events.
    case dead
}

/// The delivery state of webhooks, kept in the store so that a restarted service resumes and
/// several services on one database share the work.
///
/// For each webhook (by a stable name), the store queues every event appended after the webhook
/// was first used, in cursor order. ``claimWebhookDeliveries(webhook:now:lease:limit:)`` hands out
/// the oldest due events whose verification has no earlier undelivered event (so events arrive in
/// order per verification, and a failing one holds back only its own verification), each under a
/// lease: another process claims it only after the lease ran out (its claimer died or hung), which
/// is the at-least-once the receivers deduplicate by event ID. Queued and dead deliveries go with
/// the retention sweep.
public protocol WebhookOutbox: Sendable {
    /// Queues the events appended since the last call for `webhook`, then claims at most `limit`
    /// due deliveries (leased until `now + lease`), oldest first.
    func claimWebhookDeliveries(webhook: String, now: Date, lease: Duration, limit: Int) async throws -> [WebhookDelivery]

    /// Records the result of a claimed delivery.
    func finishWebhookDelivery(webhook: String, cursor: Int64, result: WebhookDeliveryResult, now: Date) async throws

    /// How many deliveries of `webhook` are queued (not delivered, not dead) and how many are dead.
    func webhookBacklog(webhook: String) async throws -> (queued: Int, dead: Int)
}
