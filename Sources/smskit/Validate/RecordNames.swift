import PhoneNumbers

/// The output names of the engine's enums as static bytes, for the record writers: a `rawValue`
/// is a String made per call and read through `withUTF8`, work repeated for every field written.
///
/// The names must equal the raw values; ``_Names/check()`` asserts it for every case, and runs
/// in each debug build of `validate` (so in every CLI test).
enum _Names {
    static func name(_ type: PhoneNumberType) -> StaticString {
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

    static func name(_ possibility: PhoneNumberPossibility) -> StaticString {
        switch possibility {
        case .isPossible: "is_possible"
        case .isPossibleLocalOnly: "is_possible_local_only"
        case .invalidCountryCode: "invalid_country_code"
        case .tooShort: "too_short"
        case .invalidLength: "invalid_length"
        case .tooLong: "too_long"
        }
    }

    static func name(_ kind: FictionalKind) -> StaticString {
        switch kind {
        case .reservedForFiction: "reserved-for-fiction"
        case .nanp555Convention: "nanp-555-convention"
        case .reported: "reported"
        }
    }

    static func name(_ problem: _RecordProblem) -> StaticString {
        switch problem {
        case .invalidUTF8: "invalid_utf8"
        case .lineTooLong: "line_too_long"
        case .nulByte: "not_a_number"
        case .unclosedQuote: "unclosed_quote"
        case .spreadsheetNumber: "spreadsheet_number"
        }
    }

    /// Whether every name above is its case's raw value.
    static var allMatch: Bool {
        PhoneNumberType.allCases.allSatisfy { name($0).description == $0.rawValue }
            && PhoneNumberPossibility.allCases.allSatisfy { name($0).description == $0.rawValue }
            && FictionalKind.allCases.allSatisfy { name($0).description == $0.rawValue }
            && [_RecordProblem.invalidUTF8, .lineTooLong, .nulByte, .unclosedQuote, .spreadsheetNumber].allSatisfy { name($0).description == $0.errorName }
    }

    /// Stops a debug build whose names drifted from the engine's raw values.
    static func check() {
        assert(allMatch, "_Names differs from the raw values of PhoneNumbers' enums")
    }
}
