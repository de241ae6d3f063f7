/// How closely two phone numbers agree: libphonenumber's `MatchType`, from
/// ``PhoneNumberEngine/match(_:_:)-(PhoneNumber,PhoneNumber)`` and its string forms.
///
/// ```swift
/// engine.match("+1 650 253 0000", "650-253-0000")   // .nsnMatch
/// engine.match("+1 650 253 0000", "253 0000")       // .shortNSNMatch
/// ```
public enum PhoneNumberMatchType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Country calling code, national significant number (leading zeros included) and extension
    /// are the same.
    case exactMatch = "exact_match"
    /// One side had no country calling code (or took it from the other side's region) and the
    /// national significant numbers and extensions are the same.
    case nsnMatch = "nsn_match"
    /// One national number ends with the other (a number stored without its area code), or only
    /// one side has an extension; the calling codes agree or one side has none.
    case shortNSNMatch = "short_nsn_match"
    /// The numbers differ.
    case noMatch = "no_match"
    /// One of the inputs is not a phone number (it does not parse, even without a region).
    case notANumber = "not_a_number"

    /// Whether this is a match of any kind (exact, NSN or short NSN).
    public var isMatch: Bool {
        switch self {
        case .exactMatch, .nsnMatch, .shortNSNMatch: true
        case .noMatch, .notANumber: false
        }
    }

    /// The snake-case name, libphonenumber's in lower case: `exact_match`, `nsn_match`, ...
    public var description: String { rawValue }
}
