/// How strictly ``PhoneNumberEngine/findNumbers(in:defaultRegion:leniency:maxTries:)`` checks a
/// piece of text before reporting it as a number: libphonenumber's `Leniency`, weakest first.
///
/// ```swift
/// engine.findNumbers(in: "Call 650 253 0000", defaultRegion: "US", leniency: .exactGrouping)
/// ```
public enum PhoneNumberLeniency: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The number has a possible length for its country (``PhoneNumberEngine/possibility(of:)``).
    case possible = "possible"
    /// The number is valid, an `x` in it introduces its extension, and a national prefix the
    /// country's formatting requires is written.
    case valid = "valid"
    /// Valid, and the digits are grouped as the country's formats group them, though groups may
    /// be joined ("650 2530000" for "650 253 0000"); at most one slash in the national number.
    case strictGrouping = "strict-grouping"
    /// Valid, and every group of digits is written exactly as the country's formats write it.
    case exactGrouping = "exact-grouping"

    /// The level's rank, weakest (0) first.
    var rank: Int {
        switch self {
        case .possible: 0
        case .valid: 1
        case .strictGrouping: 2
        case .exactGrouping: 3
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}
