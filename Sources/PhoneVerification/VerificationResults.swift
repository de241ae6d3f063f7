import Foundation

/// What ``PhoneVerifier/start(phoneNumber:defaultRegion:languageCode:clientKey:)`` returns.
public struct StartedVerification: Sendable, Hashable {
    /// The verification ID to give to ``PhoneVerifier/check(id:code:)``: 22 URL-safe characters.
    public var id: String
    /// The number in E.164.
    public var e164: String
    /// The locale of the SMS (BCP 47), after fallback.
    public var locale: String
    /// SMS segments the message took (0 for a test number: nothing is sent).
    public var segments: Int
    /// When the code stops being accepted.
    public var expiresAt: Date
    /// When a resend (another start for the number) may come.
    public var resendAllowedAt: Date
    /// Whether the number is a registered test number (no SMS; its fixed code works).
    public var isTest: Bool
    /// Whether this start resent the code of an open verification (same ID).
    public var isResend: Bool
    /// The number's region (ISO 3166-1 alpha-2, `001` for non-geographic numbers).
    public var region: String?
    /// The rules in monitor mode that would have refused this start (`region_capped`,
    /// `conversion_hold`, `range_blocked`): it went ahead; count them to see what enforcing would cost.
    public var monitored: [String] = []
}

/// The verdict of ``PhoneVerifier/check(id:code:)``.
public enum CheckResult: Sendable, Hashable {
    /// The code is right; the verification is now used.
    case approved(e164: String)
    /// The code is wrong; `attemptsLeft` more checks are accepted.
    case incorrectCode(attemptsLeft: Int)
    /// The code's lifetime is over (or the server secret changed since it was sent).
    case expired
    /// Every allowed check was used.
    case tooManyAttempts
    /// No verification has this ID (a wrong, malformed or long-expired ID).
    case notFound
    /// The verification was approved before: codes are single use.
    case alreadyUsed

    /// The status's stable name: `approved`, `incorrect_code`, `expired`, `too_many_attempts`,
    /// `not_found` or `already_used`.
    public var status: String {
        switch self {
        case .approved: return "approved"
        case .incorrectCode: return "incorrect_code"
        case .expired: return "expired"
        case .tooManyAttempts: return "too_many_attempts"
        case .notFound: return "not_found"
        case .alreadyUsed: return "already_used"
        }
    }

    /// Whether the code was approved.
    public var isApproved: Bool {
        if case .approved = self { return true }
        return false
    }
}
