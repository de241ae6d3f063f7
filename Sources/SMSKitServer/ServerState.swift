import NIOCore
import PhoneNumbers

/// What the endpoints and the middleware share: the configuration, the engines, the guards'
/// state and the metrics. Built once per server.
struct ServerState: Sendable {
    let configuration: SMSKitServerConfiguration
    let engine = PhoneNumberEngine()
    let renderers: RendererCache
    let limiter: RateLimiter?
    let wrongKeys: SourceThrottle?
    /// The budget of delivery reports answered 400, 404 or 413 per source address.
    let badReports: SourceThrottle?
    let metrics: ServiceMetrics
    let openAPIDocument: ByteBuffer
    let verifications: VerificationEndpoints?

    init(configuration: SMSKitServerConfiguration, metrics: ServiceMetrics, verifications: VerificationEndpoints?) throws {
        self.configuration = configuration
        self.metrics = metrics
        self.verifications = verifications
        self.renderers = try RendererCache()
        self.limiter = configuration.rateLimitPerSecond > 0
            ? RateLimiter(ratePerSecond: configuration.rateLimitPerSecond, burst: configuration.rateLimitBurst) : nil
        self.wrongKeys = configuration.wrongKeysPerMinute > 0 && configuration.requiresAPIKey
            ? SourceThrottle(perMinute: configuration.wrongKeysPerMinute) : nil
        self.badReports = configuration.badReportsPerSecond > 0
            ? SourceThrottle(perSecond: configuration.badReportsPerSecond, burst: configuration.badReportBurst) : nil
        self.openAPIDocument = OpenAPIDocument.buffer
    }

    /// The verification endpoints, or the 404 of a server without a verification store.
    func enabledVerifications() throws -> VerificationEndpoints {
        guard let verifications else { throw ServiceError.verificationDisabled }
        return verifications
    }
}
