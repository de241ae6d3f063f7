import CoreMetrics
import Logging
import PhoneNumbers
import PhoneVerification
import ServiceLifecycle

/// The verification side of the service: the store and the sender its composition root opened
/// (the server links neither a database nor a gateway client of its own), the server secret and
/// the send guard.
///
/// ```swift
/// let store = try SQLiteVerificationStore(path: "/var/lib/smskit/verify.sqlite")
/// var settings = VerificationSettings(secret: try VerificationSecret(secretBytes),
///                                     store: OpenedVerificationStore(store: store),
///                                     sender: { _, _ in OutboxSender(path: "/var/lib/smskit/outbox.jsonl") })
/// settings.verifier.sendGuard.deniedRegions = ["CU"]
/// configuration.verification = settings
/// ```
public struct VerificationSettings: Sendable {
    /// The store, with what makes it ready and the services it needs running.
    public var store: OpenedVerificationStore
    /// Makes the sender with the server's logger and metrics factory (a gateway client reports
    /// its own metrics there, beside the service's).
    public var sender: @Sendable (Logger, any MetricsFactory) -> any SMSSender
    /// The services the sender needs running beside the server (an SMPP session): they start
    /// with the server and shut down after it has drained its requests, so that a gateway
    /// session ends cleanly (an SMPP unbind) once no request can still use it.
    public var senderServices: [any Service] = []
    /// The server secret (codes are kept as HMAC-SHA256 under it). Every process sharing a
    /// store needs the same one.
    public var secret: VerificationSecret
    /// The test numbers (fixed codes, no SMS); none by default.
    public var testNumbers: TestNumberRegistry?
    /// Code length, lifetime, attempts, resend rules and the send guard. The serve default
    /// differs from the library's in one point: a store that does not answer in 5 seconds is a
    /// 503, not a hung request.
    public var verifier: VerificationConfiguration
    /// How often the background sweep deletes expired verifications (kept for
    /// ``PhoneVerification/VerificationConfiguration/retention``) and empty windows, or `nil` for no
    /// sweep (another process sweeps the shared store); every 5 minutes by default.
    public var sweepInterval: Duration? = .seconds(300)
    /// Services the composition root runs beside the server and the sweep (the webhook dispatcher).
    public var services: [any Service] = []
    /// The clock (tests move it by hand).
    public var clock: VerificationClock = .system
    /// Runs for the server's lifetime with the sender it made and the verifier, to feed delivery
    /// reports the sender's gateway pushes back (an SMPP client's receipts); `nil` for none.
    public var deliveryReportFeed: (@Sendable (any SMSSender, PhoneVerifier) async -> Void)?

    /// Settings with `secret`, `store`, `sender` and the defaults.
    public init(secret: VerificationSecret, store: OpenedVerificationStore,
                sender: @escaping @Sendable (Logger, any MetricsFactory) -> any SMSSender) {
        self.secret = secret
        self.store = store
        self.sender = sender
        var verifier = VerificationConfiguration()
        verifier.storeTimeout = .seconds(5)
        self.verifier = verifier
    }
}

/// A store as the service uses it: the store, what makes it ready (idempotent, retried before
/// each request until it succeeds once: PostgreSQL's tables are created on first contact) and the
/// services it needs running beside the server (the PostgreSQL client).
public struct OpenedVerificationStore: Sendable {
    /// The store.
    public var store: any VerificationStore
    /// What makes it ready.
    public var prepare: @Sendable () async throws -> Void
    /// The services it needs running.
    public var services: [any Service]

    /// A store, ready as it is unless `prepare` says otherwise.
    public init(store: any VerificationStore, prepare: @escaping @Sendable () async throws -> Void = {},
                services: [any Service] = []) {
        self.store = store
        self.prepare = prepare
        self.services = services
    }
}
