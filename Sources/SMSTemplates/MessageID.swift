/// The identifier of a message in a template catalog, such as `verification_code`.
///
/// Identifiers are ASCII letters, digits, `_`, `.` and `-`, 1 to 64 characters. The four messages
/// SMSKit ships in every bundled locale have static members; your own catalogs may add more.
///
/// ```swift
/// let id = MessageID.verificationCodeWithExpiry
/// let custom = MessageID(rawValue: "password_reset")   // nil if malformed
/// ```
public struct MessageID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier as written in the catalog, e.g. `"login_code"`.
    public let rawValue: String

    /// Creates an identifier, or `nil` when `rawValue` is empty, longer than 64 characters or
    /// contains a character other than ASCII letters, digits, `_`, `.` and `-`.
    public init?(rawValue: String) {
        guard MessageID.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { self.rawValue = known }

    /// `verification_code`: arguments `code`, `appName`.
    public static let verificationCode = MessageID(known: "verification_code")
    /// `verification_code_expiry`: arguments `code`, `appName`, `minutes` (a plural).
    public static let verificationCodeWithExpiry = MessageID(known: "verification_code_expiry")
    /// `login_code`: a sign-in code; arguments `code`, `appName`.
    public static let loginCode = MessageID(known: "login_code")
    /// `mfa_code`: a multi-factor (two-step) code; arguments `code`, `appName`.
    public static let multiFactorCode = MessageID(known: "mfa_code")

    /// The messages every bundled locale has, in a stable order.
    public static let bundled: [MessageID] = [.verificationCode, .verificationCodeWithExpiry, .loginCode, .multiFactorCode]

    public var description: String { rawValue }

    public static func < (lhs: MessageID, rhs: MessageID) -> Bool { lhs.rawValue < rhs.rawValue }

    static func isValid(_ value: String) -> Bool {
        var count = 0
        for byte in value.utf8 {
            count += 1
            guard count <= 64 else { return false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return count > 0
    }

    /// The arguments a well-known message must use and may use; `nil` for your own messages,
    /// which are checked at render time only.
    var knownArguments: (required: [String], allowed: [String])? {
        switch rawValue {
        case "verification_code", "login_code", "mfa_code": return (["code"], ["code", "appName"])
        case "verification_code_expiry": return (["code", "minutes"], ["code", "appName", "minutes"])
        default: return nil
        }
    }
}
