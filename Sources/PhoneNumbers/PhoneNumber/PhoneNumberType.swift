/// What kind of line a number is, as libphonenumber classifies it.
public enum PhoneNumberType: String, Sendable, Hashable, Codable, CaseIterable {
    case fixedLine = "fixed_line"
    case mobile
    /// Fixed line and mobile numbers share patterns in this region (the US, for example).
    case fixedLineOrMobile = "fixed_line_or_mobile"
    case tollFree = "toll_free"
    case premiumRate = "premium_rate"
    /// The cost is shared between caller and recipient.
    case sharedCost = "shared_cost"
    case voip
    case personalNumber = "personal_number"
    case pager
    /// Universal access number (a company's single number).
    case uan
    case voicemail
    /// Does not match any type's pattern: the number is not valid.
    case unknown
}

/// The outcome of the cheap length check (libphonenumber's `ValidationResult`).
public enum PhoneNumberPossibility: String, Sendable, Hashable, Codable, CaseIterable {
    case isPossible = "is_possible"
    /// Possible only when dialled locally (without an area code).
    case isPossibleLocalOnly = "is_possible_local_only"
    case invalidCountryCode = "invalid_country_code"
    case tooShort = "too_short"
    /// Between the shortest and longest possible lengths, but not one of them.
    case invalidLength = "invalid_length"
    case tooLong = "too_long"

    /// Whether the number is possible (locally or in full).
    public var isPossible: Bool { self == .isPossible || self == .isPossibleLocalOnly }
}

/// The ways to write a number.
public enum PhoneNumberFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// `+16502530000`
    case e164
    /// `+1 650-253-0000`
    case international
    /// `(650) 253-0000`
    case national
    /// `tel:+1-650-253-0000`
    case rfc3966
}
