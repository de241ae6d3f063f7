
/// Why `validate` could not hand a record to the engine. Each gives the record an `error` value.
enum _RecordProblem: UInt8 {
    /// The number or region field is not valid UTF-8: error `invalid_utf8`.
    case invalidUTF8
    /// The record is longer than 64 KiB: error `line_too_long` (the input field is left empty).
    case lineTooLong
    /// The number field holds a NUL byte, which no phone number has: error `not_a_number`.
    case nulByte
    /// A quote opened on the record's line never closed (the record was cut at its line):
    /// error `unclosed_quote`.
    case unclosedQuote
    /// The number is in scientific notation, as Excel writes long numbers: its trailing digits
    /// are lost. Error `spreadsheet_number`.
    case spreadsheetNumber

    var errorName: StaticString {
        switch self {
        case .invalidUTF8: "invalid_utf8"
        case .lineTooLong: "line_too_long"
        case .nulByte: "not_a_number"
        case .unclosedQuote: "unclosed_quote"
        case .spreadsheetNumber: "spreadsheet_number"
        }
    }

    /// What the `error_message` field says.
    var message: StaticString {
        switch self {
        case .invalidUTF8: "The number field is not valid UTF-8."
        case .lineTooLong: "The record is longer than 64 KiB."
        case .nulByte: "The input is not a phone number."
        case .unclosedQuote: "A quote opened on this line never closed; the record was cut at the end of its line."
        case .spreadsheetNumber: "The number is in scientific notation, as spreadsheets write long numbers: its last digits are lost."
        }
    }
}
