import PhoneNumbers
import SMSTemplates

/// A limit of `count` hits per sliding window of `window`.
///
/// The window slides: hits are kept in two buckets as long as the window, and the count at any
/// moment is the current bucket's plus the previous bucket's weighted by how much of it still lies
/// inside the window (see ``WindowCounter``). A burst at the end of one window therefore still
/// counts at the start of the next: 5 per 10 minutes never lets 10 through in a minute, as a fixed
/// window would. A refusal's `retryAfter` is the first moment the next hit fits.
public struct RateLimit: Sendable, Hashable {
    /// The most hits per window.
    public var count: Int
    /// The window's length.
    public var window: Duration

    /// Creates a limit.
    ///
    /// - Parameters:
    ///   - count: The most hits per window (at least 1).
    ///   - window: The window's length.
    public init(count: Int, window: Duration) {
        self.count = count
        self.window = window
    }
}

/// The SMS-pumping detector: many starts into one number range with few successful checks
/// blocks that range for a while.
///
/// A range is the country calling code and the first ``prefixLength`` digits of the national
/// number (e.g. `+1 650555` with 6). When more than ``threshold`` SMS go into one range within
/// the sliding ``window`` and fewer than ``minimumSuccessRatio`` of them were followed by an
/// approved check (approvals counted in the same sliding window),
/// the range is blocked for ``blockDuration``: starts into it fail with
/// ``VerificationError/Code/rangeBlocked`` and a `retryAfter`.
public struct RangeVelocity: Sendable, Hashable {
    /// How many leading digits of the national number make the range (at most the number's length minus 2).
    public var prefixLength: Int
    /// Starts into one range per window before the success ratio is looked at.
    public var threshold: Int
    /// The window starts and approvals are counted in.
    public var window: Duration
    /// The share of starts that must end approved to keep the range open (0 to 1).
    public var minimumSuccessRatio: Double
    /// How long a range stays blocked.
    public var blockDuration: Duration
    /// Monitor mode: a start the detector would refuse is reported in
    /// ``StartedVerification/monitored`` (`range_blocked`), not refused, and no block is written.
    public var monitor = false

    /// Creates a detector; the defaults are 6 digits, 30 starts per hour, 20 % approved, a 1-hour block.
    public init(prefixLength: Int = 6, threshold: Int = 30, window: Duration = .seconds(3600),
                minimumSuccessRatio: Double = 0.2, blockDuration: Duration = .seconds(3600)) {
        self.prefixLength = prefixLength
        self.threshold = threshold
        self.window = window
        self.minimumSuccessRatio = minimumSuccessRatio
        self.blockDuration = blockDuration
    }
}

/// Which numbers may be sent a code, and how often.
///
/// Defaults: every region; numbers whose type cannot take an SMS or costs extra are refused
/// (premium rate, shared cost, UAN, pager, voicemail, toll free and personal numbers; VoIP is
/// allowed; remove or add types in ``refusedTypes``), and so are the satellite and international
/// networks (+870, +881, +882, +883; see ``refusedCallingCodes``); 5 SMS per number per 10 minutes
/// and 10 per 24 hours (resends included); at most 10 failed checks per number per 24 hours
/// (``failedCheckLimit``); 20 starts per client key per 10 minutes; the ``RangeVelocity``
/// defaults. Test numbers are limited per client key and per number as others are, but skip the
/// failure budget and the range detector.
public struct SendGuard: Sendable, Hashable {
    /// Only these regions, or `nil` for all.
    public var allowedRegions: Set<RegionCode>?
    /// Never these regions (applied after ``allowedRegions``).
    public var deniedRegions: Set<RegionCode>
    /// Number types that are refused.
    public var refusedTypes: Set<PhoneNumberType>
    /// Country calling codes that are refused whatever the number's type.
    public var refusedCallingCodes: Set<Int> = SendGuard.defaultRefusedCallingCodes
    /// SMS per number (first sends and resends), or `nil` for no limit.
    public var numberLimit: RateLimit?
    /// SMS per number over a longer window (first sends and resends), or `nil` for no limit: the
    /// most SMS one person's phone gets per day however patiently it is asked.
    public var dailyNumberLimit: RateLimit?
    /// The failure budget: the most failed checks per number per window, across all its
    /// verifications, or `nil` for none. A new verification is made only while its attempts fit in
    /// what is left of the budget, so the budget holds exactly; checks of a verification that is
    /// already open, and resends of it, are never refused by it (nobody can lock a person out of
    /// the code they hold). Its count must be at least ``VerificationConfiguration/maxAttempts``.
    public var failedCheckLimit: RateLimit?
    /// Starts per client key (e.g. an IP address), or `nil` for no limit.
    public var clientLimit: RateLimit?
    /// The range velocity detector, or `nil` to turn it off.
    public var rangeVelocity: RangeVelocity?
    /// SMS per region per 24 h, or `nil` for no caps (see ``RegionCaps``).
    public var regionCaps: RegionCaps? = RegionCaps()
    /// The conversion hold of a number range, or `nil` for none (see ``ConversionHold``).
    public var rangeHold: ConversionHold? = .rangeDefault
    /// The conversion hold of a region, or `nil` for none.
    public var regionHold: ConversionHold? = .regionDefault
    /// Numbers (E.164) that skip the region rules (allowed and denied regions, caps, conversion
    /// holds, range velocity) but keep the per-number, per-client and failure limits and the
    /// attempts per code: numbers a business knows, e.g. its support staff's phones.
    public var allowedNumbers: Set<String> = []
    /// Numbers (E.164) that are never sent a code: `number_denied`.
    public var deniedNumbers: Set<String> = []

    /// The types refused by default: those that cannot take an SMS or cost the sender extra.
    /// Personal numbers (UK 070) forward to any phone at a price the range holder sets, which
    /// makes them a favourite of SMS pumping.
    public static let defaultRefusedTypes: Set<PhoneNumberType> = [
        .premiumRate, .sharedCost, .uan, .pager, .voicemail, .tollFree, .personalNumber,
    ]

    /// The calling codes refused by default: Inmarsat (+870), global mobile satellite systems
    /// (+881) and the international networks (+882, +883). Few real users verify from them, each
    /// SMS to them costs a multiple of a national one, and they are frequent destinations of SMS
    /// pumping.
    public static let defaultRefusedCallingCodes: Set<Int> = [870, 881, 882, 883]

    /// Creates a guard; see the type's discussion for the defaults.
    public init(allowedRegions: Set<RegionCode>? = nil, deniedRegions: Set<RegionCode> = [],
                refusedTypes: Set<PhoneNumberType> = SendGuard.defaultRefusedTypes,
                numberLimit: RateLimit? = RateLimit(count: 5, window: .seconds(600)),
                clientLimit: RateLimit? = RateLimit(count: 20, window: .seconds(600)),
                rangeVelocity: RangeVelocity? = RangeVelocity(),
                dailyNumberLimit: RateLimit? = RateLimit(count: 10, window: .seconds(86_400)),
                failedCheckLimit: RateLimit? = RateLimit(count: 10, window: .seconds(86_400))) {
        self.allowedRegions = allowedRegions
        self.deniedRegions = deniedRegions
        self.refusedTypes = refusedTypes
        self.numberLimit = numberLimit
        self.dailyNumberLimit = dailyNumberLimit
        self.failedCheckLimit = failedCheckLimit
        self.clientLimit = clientLimit
        self.rangeVelocity = rangeVelocity
    }
}

/// How a ``PhoneVerifier`` makes, sends and checks codes.
///
/// ```swift
/// var configuration = VerificationConfiguration(appName: "Acme")
/// configuration.codeLength = 8
/// configuration.sendGuard.deniedRegions = ["CU"]
/// ```
public struct VerificationConfiguration: Sendable {
    /// What a second start for a number with an open verification sends.
    public enum ResendCode: Sendable, Hashable {
        /// A new code; the previous one stops working (the default).
        case newCode
        /// The same code again (kept sealed with AES-GCM under a key derived from the secret).
        case sameCode
    }

    /// The app name in the SMS.
    public var appName: String
    /// The template to render (it must take `code` and may take `appName`, `minutes`).
    public var message: MessageID
    /// Digits in a code: 4 to 10; 6 by default.
    public var codeLength: Int
    /// How long a code is accepted: 10 minutes by default.
    public var lifetime: Duration
    /// Checks per verification: 5 by default. Counted per verification, never per number.
    public var maxAttempts: Int
    /// The least time between two SMS for one verification: 30 seconds by default.
    public var resendCooldown: Duration
    /// Whether a resend sends a new code or the same one.
    public var resendCode: ResendCode
    /// Which numbers may be sent a code, and how often.
    public var sendGuard: SendGuard
    /// How long one store operation may take before the verifier gives up with `store_timeout`,
    /// or `nil` to wait as long as the store does.
    public var storeTimeout: Duration?
    /// How conversion is counted per region, range and carrier, or `nil` to count nothing (the
    /// conversion holds then have no data and never trip).
    public var conversion: ConversionTracking?
    /// How long a verification is kept after it expires (a later check says `expired`, not
    /// `not_found`), before ``PhoneVerifier/removeExpired()`` deletes it: 30 days by default.
    public var retention: Duration

    /// Creates a configuration with the defaults.
    ///
    /// - Parameter appName: The app name in the SMS.
    public init(appName: String = "SMSKit") {
        self.appName = appName
        message = .verificationCode
        codeLength = 6
        lifetime = .seconds(600)
        maxAttempts = 5
        resendCooldown = .seconds(30)
        resendCode = .newCode
        sendGuard = SendGuard()
        storeTimeout = nil
        conversion = ConversionTracking()
        retention = .seconds(30 * 86_400)
    }

    func validate() throws(VerificationError) {
        func bad(_ message: String) -> VerificationError { VerificationError(.invalidConfiguration, message) }
        guard (4...10).contains(codeLength) else { throw bad("the code length must be 4 to 10, not \(codeLength)") }
        guard maxAttempts >= 1, maxAttempts <= 100 else { throw bad("max attempts must be 1 to 100, not \(maxAttempts)") }
        guard lifetime > .zero else { throw bad("the lifetime must be positive") }
        guard resendCooldown >= .zero else { throw bad("the resend cooldown must not be negative") }
        for limit in [sendGuard.numberLimit, sendGuard.dailyNumberLimit, sendGuard.clientLimit,
                      sendGuard.failedCheckLimit].compactMap({ $0 }) {
            guard limit.count >= 1, limit.window > .zero else { throw bad("a rate limit needs a count >= 1 and a positive window") }
        }
        if let budget = sendGuard.failedCheckLimit, budget.count < maxAttempts {
            throw bad("the failed-check limit (\(budget.count)) must be at least max attempts (\(maxAttempts))")
        }
        guard retention >= .zero else { throw bad("the retention must not be negative") }
        if let velocity = sendGuard.rangeVelocity {
            guard velocity.prefixLength >= 1, velocity.threshold >= 1, velocity.window > .zero,
                  velocity.blockDuration > .zero, (0...1).contains(velocity.minimumSuccessRatio) else {
                throw bad("the range velocity needs a prefix length and threshold >= 1, positive durations and a ratio in 0...1")
            }
        }
        if let timeout = storeTimeout, timeout <= .zero { throw bad("the store timeout must be positive") }
        if let conversion, conversion.window <= .zero || conversion.rangePrefixLength < 1 {
            throw bad("conversion tracking needs a positive window and a range prefix length >= 1")
        }
        for hold in [sendGuard.rangeHold, sendGuard.regionHold].compactMap({ $0 }) where !hold.isValid {
            throw bad("a conversion hold needs a minimum of sent SMS >= 1, ratios in 0...1 and a positive duration")
        }
        if let caps = sendGuard.regionCaps {
            for limit in [caps.defaultLimit].compactMap({ $0 }) + Array(caps.perRegion.values) where limit < 1 {
                throw bad("a region cap must be at least 1, not \(limit) (deny a region with deniedRegions)")
            }
        }
    }
}
