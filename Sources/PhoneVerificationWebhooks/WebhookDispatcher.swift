import CoreMetrics
import Foundation
import Logging
import PhoneVerification
import SMSKitHTTPClient

/// One configured webhook: where events go and the secret they are signed with.
public struct WebhookEndpoint: Sendable {
    /// The URL events are POSTed to.
    public let url: OutboundURL
    /// The signer (the webhook's own secret).
    public let signature: WebhookSignature
    /// The name the store keeps the webhook's delivery state under: a hash of the URL, so that a
    /// restarted service with the same URL resumes where it stopped (and the URL's query, which
    /// may hold a token, is not stored).
    public let name: String

    /// A webhook.
    public init(url: OutboundURL, signature: WebhookSignature) {
        self.url = url
        self.signature = signature
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in "\(url.isTLS ? "https" : "http")://\(url.host):\(url.port)\(url.target)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        name = "wh_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Delivers the events of a store to webhooks: each event as one signed JSON `POST`, at least
/// once, in order per verification, retried with exponential backoff and jitter for
/// ``Configuration/retryPeriod`` (then dead, counted in `smskit_webhook_deliveries_total{result="dead"}`).
///
/// The delivery state lives in the store (``WebhookOutbox``): a restarted dispatcher resumes, and
/// dispatchers of several processes on one PostgreSQL share the work through leases. A delivery is
/// done when the receiver answers 2xx; anything else (another status, a timeout, a refused
/// connection) is retried, and holds back the later events of the same verification only.
///
/// ```swift
/// let dispatcher = WebhookDispatcher(outbox: store, endpoints: [endpoint], client: try OutboundHTTPClient())
/// let task = Task { await dispatcher.run() }
/// ```
public struct WebhookDispatcher: Sendable {
    /// Timing and batching.
    public struct Configuration: Sendable {
        /// How often an idle dispatcher looks for new events.
        public var pollInterval: Duration
        /// The most deliveries claimed at once per webhook.
        public var batchSize: Int
        /// How long a claim is exclusive: longer than one delivery's total timeout.
        public var lease: Duration
        /// The delay before the first retry; each retry doubles it, up to ``maximumBackoff``.
        public var initialBackoff: Duration
        /// The longest delay between two attempts.
        public var maximumBackoff: Duration
        /// How long an event is retried before it is dead: 24 hours by default.
        public var retryPeriod: Duration

        /// The defaults: poll every second, 32 per batch, 60 s leases, retries from 5 s doubling up to an hour, for 24 h.
        public init(pollInterval: Duration = .seconds(1), batchSize: Int = 32, lease: Duration = .seconds(60),
                    initialBackoff: Duration = .seconds(5), maximumBackoff: Duration = .seconds(3600),
                    retryPeriod: Duration = .seconds(86_400)) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.lease = lease
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.retryPeriod = retryPeriod
        }
    }

    let outbox: any WebhookOutbox
    let endpoints: [WebhookEndpoint]
    let client: OutboundHTTPClient
    let configuration: Configuration
    let logger: Logger
    let metricsFactory: any MetricsFactory
    let now: @Sendable () -> Date

    /// A dispatcher.
    ///
    /// - Parameters:
    ///   - outbox: The store keeping events and delivery state.
    ///   - endpoints: The webhooks.
    ///   - client: The HTTP client (its destination policy applies to the webhooks' addresses).
    ///   - configuration: Timing and batching.
    ///   - logger: Failures at warning, deliveries at debug; URLs without their query.
    ///   - metricsFactory: Where `smskit_webhook_deliveries_total{result}` goes.
    ///   - now: The clock.
    public init(outbox: any WebhookOutbox, endpoints: [WebhookEndpoint], client: OutboundHTTPClient,
                configuration: Configuration = Configuration(), logger: Logger = Logger(label: "smskit.webhooks"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory, now: @escaping @Sendable () -> Date = { Date() }) {
        self.outbox = outbox
        self.endpoints = endpoints
        self.client = client
        self.configuration = configuration
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.now = now
    }

    /// Delivers until the task is cancelled: a loop per webhook that claims due deliveries, sends
    /// them, and sleeps ``Configuration/pollInterval`` when there was nothing to do.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for endpoint in endpoints {
                group.addTask {
                    while !Task.isCancelled {
                        let sent = await deliverDue(to: endpoint)
                        if sent == 0 {
                            do { try await Task.sleep(for: configuration.pollInterval) } catch { return }
                        }
                    }
                }
            }
        }
    }

    /// One round for one webhook: claims the due deliveries and attempts each; returns how many
    /// were attempted (0 when nothing was due or the store failed).
    @discardableResult
    public func deliverDue(to endpoint: WebhookEndpoint) async -> Int {
        let claimed: [WebhookDelivery]
        do {
            claimed = try await outbox.claimWebhookDeliveries(webhook: endpoint.name, now: now(), lease: configuration.lease,
                                                              limit: configuration.batchSize)
        } catch {
            logger.warning("webhook deliveries could not be claimed", metadata: ["error": "\(error)"])
            return 0
        }
        // Claimed deliveries are of distinct verifications: they can go at once.
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask { await attempt(delivery, to: endpoint) }
            }
        }
        return claimed.count
    }

    private func attempt(_ delivery: WebhookDelivery, to endpoint: WebhookEndpoint) async {
        let event = delivery.event
        let body = event.jsonBytes()
        let request = OutboundHTTPRequest(method: .POST, url: endpoint.url, headers: [
            ("Content-Type", "application/json"),
            (WebhookSignature.headerName, endpoint.signature.header(body: body, timestamp: now())),
            ("SMSKit-Event-ID", event.id),
        ], body: body)
        let failure: String
        do {
            let response = try await client.send(request)
            if response.isSuccess {
                await finish(delivery, endpoint, .delivered, "delivered")
                logger.debug("webhook event delivered", metadata: ["event_id": "\(event.id)", "webhook": "\(endpoint.url)"])
                return
            }
            failure = "status \(response.status)"
        } catch {
            failure = error.description
        }
        let time = now()
        if time.timeIntervalSince(delivery.queuedAt) >= configuration.retryPeriod.seconds {
            await finish(delivery, endpoint, .dead, "dead")
            logger.error("webhook event dead after retrying", metadata: [
                "event_id": "\(event.id)", "webhook": "\(endpoint.url)", "attempts": "\(delivery.attempts + 1)",
                "failure": "\(failure)",
            ])
            return
        }
        let retryAt = time.addingTimeInterval(backoff(afterAttempts: delivery.attempts + 1).seconds)
        await finish(delivery, endpoint, .retry(at: retryAt), "failed")
        logger.warning("webhook delivery failed; retrying", metadata: [
            "event_id": "\(event.id)", "webhook": "\(endpoint.url)", "attempts": "\(delivery.attempts + 1)",
            "failure": "\(failure)",
        ])
    }

    private func finish(_ delivery: WebhookDelivery, _ endpoint: WebhookEndpoint, _ result: WebhookDeliveryResult,
                        _ label: String) async {
        Counter(label: "smskit_webhook_deliveries_total", dimensions: [("result", label)], factory: metricsFactory).increment()
        do {
            try await outbox.finishWebhookDelivery(webhook: endpoint.name, cursor: delivery.event.cursor, result: result,
                                                   now: now())
        } catch {
            // The lease runs out and the event is delivered again: at least once.
            logger.warning("webhook delivery state could not be saved", metadata: ["error": "\(error)"])
        }
    }

    /// The delay before the next attempt: ``Configuration/initialBackoff`` doubled per failed
    /// attempt, at most ``Configuration/maximumBackoff``, times a random factor in 0.5...1 so that
    /// receivers coming back are not hit by every retry at once.
    func backoff(afterAttempts attempts: Int) -> Duration {
        let base = configuration.initialBackoff.seconds * pow(2, Double(min(max(attempts - 1, 0), 30)))
        let capped = min(base, configuration.maximumBackoff.seconds)
        return .milliseconds(Int64(capped * Double.random(in: 0.5...1) * 1000))
    }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic wants it.
    var seconds: TimeInterval {
        let (whole, attoseconds) = components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
