/// How `smskit serve` listens, whom it lets in and how much it accepts.
///
/// The defaults are safe: loopback only, API keys required, bodies up to 4 MiB, 10,000 numbers a
/// batch, NDJSON lines up to 4 KiB, 50 requests a second per key with bursts of 100.
///
/// ```swift
/// var configuration = SMSKitServerConfiguration()
/// configuration.port = 8080
/// configuration.apiKeys = try APIKeys(keys: ["k3y-for-the-billing-service-0001"])
/// ```
public struct SMSKitServerConfiguration: Sendable {
    /// The address to listen on; loopback by default (put a TLS reverse proxy in front to expose it).
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (see ``SMSKitServer/run(onListening:)``).
    public var port: Int = 8080
    /// The accepted API keys (hashed).
    public var apiKeys: APIKeys = .none
    /// Whether `/v1/...` and `/metrics` need a key. Turning this off is for local experiments only.
    public var requiresAPIKey: Bool = true
    /// The largest JSON request body, in bytes (413 above it).
    public var maxBodyBytes: Int = 4 << 20
    /// The most numbers in one `POST /v1/numbers/check` array (413 above it).
    public var maxBatchCount: Int = 10_000
    /// The longest NDJSON line of `check-stream`, in bytes (an error line for a longer one).
    public var maxLineBytes: Int = 4096
    /// Requests a second each key may make on average (0 turns rate limiting off).
    public var rateLimitPerSecond: Double = 50
    /// Requests each key may make at once.
    public var rateLimitBurst: Int = 100
    /// Seconds a connection may stay silent (no request bytes) before it is closed.
    public var idleTimeoutSeconds: Int = 30
    /// Seconds a client has to send a whole JSON body (408 after that); slow clients cannot hold
    /// a connection by sending a byte now and then.
    public var bodyTimeoutSeconds: Int = 30

    /// The verification endpoints' store, sender, secret and guard; `nil` leaves them
    /// answering 404 `verification_disabled` (`smskit serve` always sets them).
    public var verification: VerificationSettings?

    /// The log level: trace, debug, info (default), notice, warning, error or critical.
    public var logLevel: String = "info"

    /// The defaults.
    public init() {}
}
