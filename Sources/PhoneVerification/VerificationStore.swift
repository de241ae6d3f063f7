import Foundation

/// Where a verification stands.
public enum VerificationState: String, Sendable, Hashable, Codable {
    /// Waiting for the right code (until it expires or runs out of attempts).
    case open
    /// Approved once; any later check says `already_used`.
    case approved
    /// Closed without approval: its SMS could not be sent, or the server secret changed.
    case closed
}

/// One verification as a ``VerificationStore`` keeps it. It never holds the code in clear.
///
/// `digest` is HMAC-SHA256(server secret, id ‖ code); `sealedCode` is present only when the
/// configuration resends the same code (``VerificationConfiguration/ResendCode/sameCode``), and is
/// the code sealed with AES-GCM under a key derived from the secret, the ID as associated data.
public struct VerificationRecord: Sendable, Hashable {
    /// The verification ID: 22 URL-safe base64 characters (128 random bits).
    public var id: String
    /// The number the code went to, in E.164.
    public var e164: String
    /// HMAC-SHA256(secret, id ‖ code): 32 bytes.
    public var digest: [UInt8]
    /// Which secret made `digest` (a public fingerprint of it); another one means the secret changed.
    public var keyID: String
    /// The code sealed for resending the same code, or `nil`.
    public var sealedCode: [UInt8]?
    /// The locale of the SMS (BCP 47).
    public var locale: String
    /// Whether the number is a registered test number (no SMS was sent).
    public var isTest: Bool
    /// When the verification was created.
    public var createdAt: Date
    /// When its code stops being accepted.
    public var expiresAt: Date
    /// Checks counted so far.
    public var attempts: Int
    /// The most checks it accepts.
    public var maxAttempts: Int
    /// SMS sent for it (1 + resends).
    public var sendCount: Int
    /// When its latest SMS was sent.
    public var lastSentAt: Date
    /// Where it stands.
    public var state: VerificationState

    /// Creates a record (the verifier does; stores read and write them).
    public init(id: String, e164: String, digest: [UInt8], keyID: String, sealedCode: [UInt8]?, locale: String,
                isTest: Bool, createdAt: Date, expiresAt: Date, attempts: Int, maxAttempts: Int, sendCount: Int,
                lastSentAt: Date, state: VerificationState) {
        self.id = id
        self.e164 = e164
        self.digest = digest
        self.keyID = keyID
        self.sealedCode = sealedCode
        self.locale = locale
        self.isTest = isTest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.sendCount = sendCount
        self.lastSentAt = lastSentAt
        self.state = state
    }

    /// Whether a check at `now` may still be counted: open, not expired, attempts left.
    public func isOpen(at now: Date) -> Bool {
        state == .open && now < expiresAt && attempts < maxAttempts
    }

    /// Why a check at `now` cannot be counted, in the order a store must report it, or `nil`.
    public func refusal(at now: Date) -> AttemptOutcome? {
        switch state {
        case .approved: return .alreadyUsed
        case .closed: return .closed
        case .open:
            if now >= expiresAt { return .expired }
            if attempts >= maxAttempts { return .tooManyAttempts }
            return nil
        }
    }
}

/// The result of counting one check against a verification, atomically.
public enum AttemptOutcome: Sendable, Hashable {
    /// The attempt was counted; the record shows the new count. The caller compares the code.
    case counted(VerificationRecord)
    /// No verification has this ID (or it was evicted after expiry).
    case notFound
    /// Its lifetime is over.
    case expired
    /// Its attempts are used up.
    case tooManyAttempts
    /// It was approved already.
    case alreadyUsed
    /// It was closed (its SMS failed, or the secret changed).
    case closed
}

/// The result of claiming a resend, atomically.
public enum ResendClaim: Sendable, Hashable {
    /// The resend is claimed: the record has the new digest, send count and send time.
    case claimed(VerificationRecord)
    /// The cooldown has not passed; the resend may come at the date given.
    case tooEarly(Date)
    /// The verification is no longer open; start a new one.
    case notOpen
}

/// A fixed-window counter's state.
public struct CounterState: Sendable, Hashable {
    /// Hits in the current window.
    public var value: Int
    /// When the current window ends (the counter then starts again from zero).
    public var windowEnd: Date

    /// Creates a counter state.
    public init(value: Int, windowEnd: Date) {
        self.value = value
        self.windowEnd = windowEnd
    }
}

/// The result of consuming one hit of a counter.
public struct CounterDecision: Sendable, Hashable {
    /// Whether the hit was under the limit and was counted.
    public var allowed: Bool
    /// The counter's value after the call.
    public var value: Int
    /// When the window ends.
    public var windowEnd: Date

    /// Creates a decision.
    public init(allowed: Bool, value: Int, windowEnd: Date) {
        self.allowed = allowed
        self.value = value
        self.windowEnd = windowEnd
    }
}

/// Storage for verifications and rate-limit counters. Every operation is atomic on its own: two
/// processes (or tasks) calling it at once see one after the other.
///
/// The package ships ``InMemoryVerificationStore``; `PhoneVerificationSQLite` and
/// `PhoneVerificationPostgres` ship stores over a SQLite file and PostgreSQL. A store should throw
/// ``VerificationStoreError``; the verifier reports any other error as `store_unavailable`, without
/// its text. A store never decides whether a code is right: it only counts attempts.
///
/// Counters are fixed windows: the first hit opens a window of the given length; hits are
/// counted until it ends, and the next hit after that opens a new one.
public protocol VerificationStore: Sendable {
    /// Adds a new verification.
    func insert(_ record: VerificationRecord) async throws

    /// The newest verification for a number that is open at `now` (see ``VerificationRecord/isOpen(at:)``).
    func openVerification(e164: String, now: Date) async throws -> VerificationRecord?

    /// Claims a resend: if the verification is open at `now` and its last SMS was sent at or before
    /// `notAfter`, sets its digest, sealed code and key ID, adds one to its send count and sets its
    /// send time to `now`, in one step.
    func claimResend(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date,
                     lastSentNotAfter notAfter: Date) async throws -> ResendClaim

    /// Counts one check: if the verification is open at `now`, adds one to its attempts and returns
    /// the updated record, in one step; otherwise says why not (``VerificationRecord/refusal(at:)``).
    func countAttempt(id: String, now: Date) async throws -> AttemptOutcome

    /// Marks an open verification approved; `false` when it was no longer open (another check won).
    func approve(id: String, now: Date) async throws -> Bool

    /// Closes a verification that is still open (its SMS failed, or the secret changed).
    func close(id: String) async throws

    /// Adds one hit to a counter if it is below `limit`, opening a new window of `window` when the
    /// last one ended.
    func consume(counter key: String, limit: Int, window: Duration, now: Date) async throws -> CounterDecision

    /// A counter's current window, or `nil` when it has none open at `now`.
    func counter(_ key: String, now: Date) async throws -> CounterState?

    /// Sets a counter's value and window end (used to block a range until a date).
    func setCounter(_ key: String, value: Int, until: Date) async throws

    /// Deletes verifications that expired before `now` and counters whose window ended; returns how many.
    @discardableResult
    func removeExpired(now: Date) async throws -> Int
}
