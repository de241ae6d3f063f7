import PhoneNumbers
import PhoneVerification

/// The verification side of `smskit serve`: where verifications are kept, how SMS leave, the
/// server secret and the send guard.
///
/// ```swift
/// var settings = VerificationSettings(secret: try VerificationSecret(secretBytes))
/// settings.store = try VerificationStoreLocation(parsing: "postgres://smskit@db.internal/smskit")
/// settings.verifier.sendGuard.deniedRegions = ["CU"]
/// configuration.verification = settings
/// ```
public struct VerificationSettings: Sendable {
    /// The store; `sqlite:smskit-verify.sqlite` by default.
    public var store: VerificationStoreLocation = .default
    /// The sender; `outbox:smskit-outbox.jsonl` by default.
    public var sender: SMSSenderLocation = .default
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
    /// The clock (tests move it by hand).
    public var clock: VerificationClock = .system

    /// Settings with `secret` and the defaults.
    public init(secret: VerificationSecret) {
        self.secret = secret
        var verifier = VerificationConfiguration()
        verifier.storeTimeout = .seconds(5)
        self.verifier = verifier
    }
}
