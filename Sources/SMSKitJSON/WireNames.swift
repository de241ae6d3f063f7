import PhoneNumbers

/// The output names of the engine's enums as static bytes, for the number answer's writer: a
/// `rawValue` is a String made per call and read through `withUTF8`, work repeated for every
/// field of every record written.
///
/// Each name must equal its case's raw value; ``allMatch`` says whether they do, and a test
/// holds it true.
package enum WireNames {
    @inline(__always)
    package static func name(_ type: PhoneNumberType) -> StaticString {
        switch type {
        case .fixedLine: "fixed_line"
        case .mobile: "mobile"
        case .fixedLineOrMobile: "fixed_line_or_mobile"
        case .tollFree: "toll_free"
        case .premiumRate: "premium_rate"
        case .sharedCost: "shared_cost"
        case .voip: "voip"
        case .personalNumber: "personal_number"
        case .pager: "pager"
        case .uan: "uan"
        case .voicemail: "voicemail"
        case .unknown: "unknown"
        }
    }

    @inline(__always)
    package static func name(_ possibility: PhoneNumberPossibility) -> StaticString {
        switch possibility {
        case .isPossible: "is_possible"
        case .isPossibleLocalOnly: "is_possible_local_only"
        case .invalidCountryCode: "invalid_country_code"
        case .tooShort: "too_short"
        case .invalidLength: "invalid_length"
        case .tooLong: "too_long"
        }
    }

    @inline(__always)
    package static func name(_ kind: FictionalKind) -> StaticString {
        switch kind {
        case .reservedForFiction: "reserved-for-fiction"
        case .nanp555Convention: "nanp-555-convention"
        case .reported: "reported"
        }
    }

    /// Whether every name above is its case's raw value.
    package static var allMatch: Bool {
        PhoneNumberType.allCases.allSatisfy { name($0).description == $0.rawValue }
            && PhoneNumberPossibility.allCases.allSatisfy { name($0).description == $0.rawValue }
            && FictionalKind.allCases.allSatisfy { name($0).description == $0.rawValue }
    }
}
