/// How `smskit serve` listens, whom it lets in and how much it accepts.
///
/// The defaults are safe: loopback only, API keys required, bodies up to 4 MiB, 10,000 numbers a
/// batch, NDJSON lines up to 4 KiB, 50 requests a second per key with bursts of 100, 10 wrong
/// keys a minute per address, 20 bad delivery reports a second per address with bursts of 100,
/// connections up to half the open-file limit, `segments` answers up to 1 MiB, `find` texts up to
/// 16,384 characters and 1,000 numbers, `check-stream` bodies up to 64 MiB and 10 minutes.
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
    /// The most connections open at once; `nil` (the default) is half the process's open-file
    /// limit, at most 10,000. At the limit the connection idle longest is closed to make room
    /// (the new one when every open connection has a request in flight), so a flood of idle
    /// connections can neither exhaust the file descriptors nor keep clients out. It must leave
    /// 64 descriptors of the open-file limit for the rest of the process.
    /// `smskit serve` raises the soft open-file limit to the hard one first.
    public var maxConnections: Int?
    /// The largest `POST /v1/segments` answer, in bytes: a text whose analysis would be larger
    /// is refused with 422 `answer_too_large` before it is analysed (an analysis lists every
    /// character that forces UCS-2 and every change, so it may be many times its text).
    public var maxSegmentsAnswerBytes: Int = 1 << 20
    /// The longest `POST /v1/numbers/find` text, in Unicode characters (422 `text_too_long`
    /// above it): the matcher's work grows with the text.
    public var maxFindTextLength: Int = 16_384
    /// The most numbers one `POST /v1/numbers/find` answer lists (413 `too_many_numbers` above
    /// it): each costs a validation and a classification, and a record in the answer.
    public var maxFindNumbers: Int = 1_000
    /// The largest `check-stream` body, in bytes (413 when Content-Length says more; a
    /// `body_too_large` error line ends the answer when a chunked body goes past it).
    public var maxStreamBytes: Int = 64 << 20
    /// Seconds a `check-stream` request may last in all (a `stream_timeout` error line ends the
    /// answer then): a client trickling lines cannot hold a connection for ever.
    public var streamTimeoutSeconds: Int = 600
    /// Wrong API keys each source address may present a minute (with bursts of as many); past
    /// that, every request of that address that needs a key is refused with 429
    /// `too_many_wrong_keys` and `Retry-After`. 0 turns this off.
    public var wrongKeysPerMinute: Int = 10
    /// Delivery reports answered 400, 404 `unknown_message` or 413 that each source address may
    /// send a second on average (0 turns this off): past that and ``badReportBurst``, every report
    /// from that address is refused with 429 `too_many_bad_reports` and `Retry-After` before its
    /// token is looked up. Reports that are applied (or duplicates, or stale) spend nothing, so a
    /// gateway's good reports never throttle it; a stranger guessing tokens is slowed.
    public var badReportsPerSecond: Double = 20
    /// Bad delivery reports each source address may send at once.
    public var badReportBurst: Int = 100

    /// The verification endpoints' store, sender, secret and guard; `nil` leaves them
    /// answering 404 `verification_disabled` (`smskit serve` always sets them).
    public var verification: VerificationSettings?

    /// The log level: trace, debug, info (default), notice, warning, error or critical.
    public var logLevel: String = "info"

    /// The defaults.
    public init() {}
}
