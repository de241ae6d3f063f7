import Foundation

/// Where a verification stands.
public enum VerificationState: String, Sendable, Hashable, Codable {
    /// Waiting for the right code (until it expires or runs out of attempts).
    case open
    /// Approved once; any later check says `already_used`.
    case approved
    /// Closed without approval: its SMS could not be sent, or the server secret changed.
    case closed
    /// Cancelled by the application (``VerificationStore/cancel(id:now:)``): it approves nothing.
    case cancelled
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
    /// The number range an approval of it counts for (the range velocity detector), or `nil`.
    public var rangeKey: String?

    /// Creates a record (the verifier does; stores read and write them).
    public init(id: String, e164: String, digest: [UInt8], keyID: String, sealedCode: [UInt8]?, locale: String,
                isTest: Bool, createdAt: Date, expiresAt: Date, attempts: Int, maxAttempts: Int, sendCount: Int,
                lastSentAt: Date, state: VerificationState, rangeKey: String? = nil) {
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
        self.rangeKey = rangeKey
    }

    /// Whether a check at `now` may still be counted: open, not expired, attempts left.
    public func isOpen(at now: Date) -> Bool {
        state == .open && now < expiresAt && attempts < maxAttempts
    }

    /// Why a check at `now` cannot be counted, in the order a store must report it, or `nil`.
    public func refusal(at now: Date) -> CheckOutcome? {
        switch state {
        case .approved: return .alreadyUsed
        case .closed, .cancelled: return .closed
        case .open:
            if now >= expiresAt { return .expired }
            if attempts >= maxAttempts { return .tooManyAttempts }
            return nil
        }
    }
}

/// One rate limit as a store applies it: a sliding-window counter under `key`.
public struct WindowLimit: Sendable, Hashable {
    /// The counter's key (the verifier prefixes it by kind: `c:` client, `n:` number).
    public var key: String
    /// The most hits per sliding window.
    public var limit: Int
    /// The window's length.
    public var window: Duration

    /// Creates a limit.
    public init(key: String, limit: Int, window: Duration) {
        self.key = key
        self.limit = limit
        self.window = window
    }

    /// The key failed checks of a number are counted under (`f:` and the E.164 number).
    public static func failureKey(e164: String) -> String { "f:" + e164 }
}

/// The range velocity rule for one start, as a store applies it (see ``RangeVelocity``).
///
/// The store counts the start in the sliding window `rs:<range>`; when that count is above
/// `threshold` and the approvals counted in `ra:<range>` (by ``VerificationStore/check(_:)``) are
/// fewer than `minimumSuccessBasisPoints` / 10,000 of it, it blocks the range until `now + block`.
public struct RangeRule: Sendable, Hashable {
    /// The range: calling code and the first digits of the national number (`1:212736`).
    public var range: String
    /// Starts per window before the success ratio is looked at.
    public var threshold: Int
    /// The window starts and approvals are counted in.
    public var window: Duration
    /// The share of starts that must end approved, in basis points (2,000 = 20 %).
    public var minimumSuccessBasisPoints: Int
    /// How long a tripped range stays blocked.
    public var block: Duration
    /// Whether the rule only reports (``StartOutcome/monitored(_:_:)``) instead of blocking.
    public var monitor: Bool

    /// Creates a rule.
    public init(range: String, threshold: Int, window: Duration, minimumSuccessBasisPoints: Int, block: Duration,
                monitor: Bool = false) {
        self.monitor = monitor
        self.range = range
        self.threshold = threshold
        self.window = window
        self.minimumSuccessBasisPoints = minimumSuccessBasisPoints
        self.block = block
    }
}

/// A conversion hold as a store applies it (see ``ConversionHold``), read before anything is written.
///
/// Held when the hold key `xh:<key>` is blocked at `now`; else it trips (writes the hold until
/// `now + duration`, unless `monitor`) when the sent counter `xs:<key>` is at least `minimumSent`
/// in the window and the approvals `xa:<key>` are under `minimumApprovedBasisPoints` / 10,000 of
/// it, or, when delivered `xd:<key>` plus failed `xf:<key>` is above 0, the deliveries are under
/// `minimumDeliveredBasisPoints` / 10,000 of it. All counts are window estimates times the window
/// length (``WindowCounter/weighted(at:window:)``), in integers, as PostgreSQL computes them too.
public struct HoldRule: Sendable, Hashable {
    /// The dimension value: `r:GB`, `g:44:7400`.
    public var key: String
    /// The conversion window.
    public var window: Duration
    /// SMS in the window before the ratios are looked at.
    public var minimumSent: Int
    /// The least approvals per sent SMS, in basis points.
    public var minimumApprovedBasisPoints: Int
    /// The least deliveries per sent SMS, in basis points, or `nil`.
    public var minimumDeliveredBasisPoints: Int?
    /// How long a tripped hold lasts.
    public var duration: Duration
    /// Whether the rule only reports (``StartOutcome/monitored(_:_:)``) instead of refusing.
    public var monitor: Bool

    /// Creates a rule.
    public init(key: String, window: Duration, minimumSent: Int, minimumApprovedBasisPoints: Int,
                minimumDeliveredBasisPoints: Int?, duration: Duration, monitor: Bool) {
        self.key = key
        self.window = window
        self.minimumSent = minimumSent
        self.minimumApprovedBasisPoints = minimumApprovedBasisPoints
        self.minimumDeliveredBasisPoints = minimumDeliveredBasisPoints
        self.duration = duration
        self.monitor = monitor
    }

    /// Whether counters (rolled to `now`, `nil` when absent) trip the rule.
    public func trips(sent: WindowCounter?, approved: WindowCounter?, delivered: WindowCounter?,
                      failed: WindowCounter?, now: Int64) -> Bool {
        let length = window.windowMilliseconds
        func weighted(_ counter: WindowCounter?) -> Int64 {
            counter?.rolled(to: now, window: length).weighted(at: now, window: length) ?? 0
        }
        let s = weighted(sent)
        guard s >= Int64(minimumSent) &* length else { return false }
        if weighted(approved) &* 10_000 < s &* Int64(minimumApprovedBasisPoints) { return true }
        if let floor = minimumDeliveredBasisPoints {
            let d = weighted(delivered)
            if d &+ weighted(failed) > 0, d &* 10_000 < s &* Int64(floor) { return true }
        }
        return false
    }
}

/// Everything one start asks of the store, applied as one atomic operation by
/// ``VerificationStore/start(_:)``.
///
/// The rules read first and write last, so that a refused start writes nothing (a flood of
/// refused starts, from as many client keys as it likes, cannot grow the store):
/// 1. the range block (read);
/// 2. the number's newest verification: when it is open at `now` under `keyID` and `resendCooldown`
///    is set, it is the one to resend, unless its last SMS was less than the cooldown ago;
/// 3. the number limit and the daily number limit (read);
/// 4. when a new verification would be made, the failure budget (read): refused when the failed
///    checks counted for the number in the current and the previous bucket, both in full, plus the
///    new verification's `maxAttempts` exceed the budget (so no span of one window holds more);
/// 5. the region cap (read, with the number limits) and the conversion holds (read; a hold that
///    trips writes its hold key): in monitor mode each only notes what it would refuse;
/// 6. the client limit (counts a hit; a refusal writes only to a counter the key already has);
/// 7. the range rule (counts the start; may block the range);
/// 8. the number limits and the region cap (count a hit each), the sent conversion counters, then
///    the resend (send count + 1, last send `now`) or the insertion of ``record`` with its first
///    SMS, ``message`` (so that a report that comes before the send returns finds it).
///
/// A store serialises starts for one number (PostgreSQL with a transaction-scoped advisory lock on
/// the number), so concurrent starts for a new number make one verification and one SMS.
public struct StartRequest: Sendable, Hashable {
    /// The verification to insert when there is nothing to resend. Its `createdAt` is `now`.
    public var record: VerificationRecord
    /// The per-client limit, or `nil`.
    public var clientLimit: WindowLimit?
    /// The per-number limit (first sends and resends), or `nil`.
    public var numberLimit: WindowLimit?
    /// The daily per-number limit (first sends and resends), or `nil`.
    public var dailyNumberLimit: WindowLimit?
    /// The failed checks a number may have in the window (the key is
    /// ``WindowLimit/failureKey(e164:)``), or `nil`. It refuses a *new* verification whose
    /// attempts could take the number past the budget; resends and checks are never refused by it.
    public var failureBudget: WindowLimit?
    /// The range velocity rule, or `nil`.
    public var range: RangeRule?
    /// The least time between two SMS of one verification; `nil` never resends (test numbers).
    public var resendCooldown: Duration?
    /// The daily SMS cap of the number's region (key `rc:<region>`), or `nil`.
    public var regionCap: WindowLimit?
    /// Whether the region cap only reports (monitor mode) instead of refusing.
    public var regionCapMonitor = false
    /// The conversion holds of the number's range and region.
    public var holds: [HoldRule] = []
    /// The conversion counters a start that sends an SMS counts a hit in (`xs:` keys).
    public var sentKeys: [String] = []
    /// The window of ``sentKeys``.
    public var sentWindow: Duration = .seconds(86_400)
    /// The SMS to record with ``record`` when the start creates it (outcome ``StartOutcome/created``),
    /// in the same transaction; `nil` for none (test numbers). A resend records its SMS apart
    /// (``VerificationStore/recordMessage(_:)``): its sequence and code come from the claim.
    public var message: DeliveryMessage?

    /// The time of the request.
    public var now: Date { record.createdAt }

    /// Creates a request.
    public init(record: VerificationRecord, clientLimit: WindowLimit? = nil, numberLimit: WindowLimit? = nil,
                range: RangeRule? = nil, resendCooldown: Duration? = nil, dailyNumberLimit: WindowLimit? = nil,
                failureBudget: WindowLimit? = nil) {
        self.record = record
        self.clientLimit = clientLimit
        self.numberLimit = numberLimit
        self.dailyNumberLimit = dailyNumberLimit
        self.failureBudget = failureBudget
        self.range = range
        self.resendCooldown = resendCooldown
    }
}

/// What a store did with a ``StartRequest``.
public enum StartOutcome: Sendable, Hashable {
    /// The request's record was inserted.
    case created
    /// An open verification of the number was claimed for a resend: the record after the claim
    /// (send count and last send updated; digest and sealed code as they were).
    case resend(VerificationRecord)
    /// The client limit is reached; a start may come at the date given.
    case clientLimited(retryAt: Date)
    /// The range is blocked until the date given; `newly` when this start tripped the block.
    case rangeBlocked(until: Date, newly: Bool)
    /// The number's open verification had an SMS less than the cooldown ago; a resend may come at the date given.
    case cooldown(until: Date)
    /// The number limit (or the daily number limit) is reached; a start may come at the date given.
    case numberLimited(retryAt: Date)
    /// The number's failure budget leaves no room for a new verification; one may be made at the date given.
    case failureLimited(retryAt: Date)
    /// The region's daily SMS cap is reached; a start may come at the date given.
    case regionCapped(retryAt: Date)
    /// The conversion hold of `key` (`r:GB`, `g:44:7400`) lasts until the date given; `newly`
    /// when this start tripped it.
    case held(key: String, until: Date, newly: Bool)
    /// Rules in monitor mode would have refused the start (their names: `region_capped`,
    /// `conversion_hold`, `range_blocked`); the outcome is what happened.
    indirect case monitored(_ rules: [String], _ outcome: StartOutcome)

    /// The outcome without the monitor notes.
    public var unmonitored: StartOutcome {
        if case .monitored(_, let outcome) = self { return outcome }
        return self
    }
}

/// Everything one check asks of the store, applied as one atomic operation by ``VerificationStore/check(_:)``.
public struct CheckRequest: Sendable {
    /// The verification ID (well formed: the verifier checked it).
    public var id: String
    /// HMAC-SHA256(secret, id ‖ typed code), to compare with the stored digest.
    public var digest: [UInt8]
    /// The current secret's key ID; a verification made under another one is closed.
    public var keyID: String
    /// The time of the check.
    public var now: Date
    /// The range velocity window approvals are counted in, or `nil` when the detector is off.
    public var approvalWindow: Duration?
    /// The window failed checks are counted in for the number's failure budget (under
    /// ``WindowLimit/failureKey(e164:)``), or `nil` when the budget is off. Checks of test numbers
    /// are not counted (their codes are fixed and known).
    public var failureWindow: Duration?
    /// How an approval is counted in the conversion statistics, in the check's transaction
    /// (``conversionKeys(for:)``), or `nil` when conversion tracking is off. The approval stands
    /// whatever happens to its count: a store that cannot undo the approval (in memory) drops a
    /// count that fails; one with transactions commits both or neither.
    public var conversion: ConversionCounting?

    /// Creates a request.
    public init(id: String, digest: [UInt8], keyID: String, now: Date, approvalWindow: Duration? = nil,
                failureWindow: Duration? = nil) {
        self.id = id
        self.digest = digest
        self.keyID = keyID
        self.now = now
        self.approvalWindow = approvalWindow
        self.failureWindow = failureWindow
    }
}

/// What a store did with a ``CheckRequest``.
public enum CheckOutcome: Sendable, Hashable {
    /// The attempt was counted and the digest matched: the verification is now approved.
    case approved(e164: String)
    /// The attempt was counted and the digest did not match.
    case incorrect(attemptsLeft: Int)
    /// No verification has this ID (or it was removed after expiry).
    case notFound
    /// Its lifetime is over.
    case expired
    /// Its attempts are used up.
    case tooManyAttempts
    /// It was approved already.
    case alreadyUsed
    /// It was closed (its SMS failed, or the secret changed).
    case closed
    /// It was made under another secret: the attempt was counted and the verification closed.
    case secretChanged
}

/// Storage for verifications and rate-limit windows. A start is one atomic operation
/// (``start(_:)``: limits, range block, resend or insertion), a check is one (``check(_:)``:
/// count, compare, approve, feed the range detector): two processes (or tasks) calling at once
/// see one after the other, and a store on a server pays one round trip for each.
///
/// The package ships ``InMemoryVerificationStore``; `PhoneVerificationSQLite` and
/// `PhoneVerificationPostgres` ship stores over a SQLite file and PostgreSQL. A store that runs
/// Swift inside a transaction implements ``VerificationTransaction`` and calls
/// ``StartRequest/apply(to:)`` and ``CheckRequest/apply(to:)``, so the rules have one home; a
/// store on a server may run them as a stored procedure, and must pass the same tests. A store
/// should throw ``VerificationStoreError``; the verifier reports any other error as
/// `store_unavailable`, without its text.
///
/// Rate limits are sliding windows, approximated with two buckets (``WindowCounter``).
public protocol VerificationStore: Sendable {
    /// Applies a start atomically (see ``StartRequest``).
    func start(_ request: StartRequest) async throws -> StartOutcome

    /// Sets the digest, sealed code and key ID of a verification that is still open, after a resend
    /// claim that sends a new code (the digest binds the ID, which the claim returned); `false`
    /// when it is no longer open.
    func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date) async throws -> Bool

    /// Applies a check atomically (see ``CheckRequest``).
    func check(_ request: CheckRequest) async throws -> CheckOutcome

    /// Closes a verification that is still open (its SMS failed).
    func close(id: String) async throws

    /// Deletes verifications that expired at least `retention` before `now`, and windows that
    /// hold nothing any more at `now`; returns how many entries went.
    ///
    /// Every table of a store is bounded by this sweep (the in-memory store also by its capacity):
    /// call it periodically, e.g. with ``PhoneVerifier/sweepPeriodically(every:)``.
    @discardableResult
    func removeExpired(now: Date, retention: Duration) async throws -> Int

    /// Counts one hit in each counter (conversion statistics: approvals, delivery reports), in one
    /// atomic operation.
    func count(_ keys: [String], window: Duration, now: Date) async throws

    /// The counters with these keys that exist (as stored, not rolled).
    func counters(_ keys: [String]) async throws -> [String: WindowCounter]

    /// At most `limit` counters whose key starts with `prefix` and whose data has not expired at
    /// `now`, the largest first by the hits they hold (current plus previous bucket; ties by key).
    func topCounters(prefix: String, limit: Int, now: Date) async throws -> [(key: String, counter: WindowCounter)]

    /// Throws unless the store can serve starts and checks now: a read and a write that touch
    /// each of its tables and leave nothing behind (a service's readiness probe calls it).
    func probeReadiness(now: Date) async throws

    /// Records an SMS sent for a verification, with its queued parts, before it is handed to the
    /// sender (so that a report that comes before the send returns finds it): a resend's (a first
    /// SMS is recorded by ``start(_:)``, ``StartRequest/message``). The retention sweep removes it
    /// with its verification.
    func recordMessage(_ message: DeliveryMessage) async throws

    /// Applies a delivery report atomically through ``DeliveryMessage/applying(_:toPart:)``; `nil`
    /// when no message has the token (or the part), or no part has the provider ID.
    ///
    /// With `counting`, a report that makes its message final also hits the conversion counters
    /// of the message's number (``DeliveryReportResult/conversionKeys(e164:counting:)``) in the
    /// same atomic operation, so that a message counts once however often its report arrives.
    func applyDeliveryReport(_ report: DeliveryReport, counting: ConversionCounting?) async throws -> DeliveryReportResult?

    /// A verification with its messages (oldest first), or `nil` when there is none.
    func status(id: String) async throws -> VerificationStatus?

    /// Cancels a verification that is not approved: afterwards it approves nothing.
    func cancel(id: String, now: Date) async throws -> CancelOutcome
}

extension VerificationStore {
    public func count(_ keys: [String], window: Duration, now: Date) async throws {
        throw VerificationStoreError(.unavailable, "this store keeps no conversion counters")
    }

    public func counters(_ keys: [String]) async throws -> [String: WindowCounter] {
        throw VerificationStoreError(.unavailable, "this store keeps no conversion counters")
    }

    public func topCounters(prefix: String, limit: Int, now: Date) async throws -> [(key: String, counter: WindowCounter)] {
        throw VerificationStoreError(.unavailable, "this store keeps no conversion counters")
    }

    /// Deletes verifications that expired before `now` and windows that hold nothing any more; returns how many.
    @discardableResult
    public func removeExpired(now: Date) async throws -> Int {
        try await removeExpired(now: now, retention: .zero)
    }

    /// A round trip that changes nothing, for stores that do not say more: closing a
    /// verification that cannot exist (`readyz` is never an ID).
    public func probeReadiness(now: Date) async throws {
        try await close(id: "readyz")
    }
}
