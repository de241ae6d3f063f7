/// Why a phone number could not be parsed. The codes are libphonenumber's.
///
/// ```swift
/// do { _ = try engine.parse(e164: "+999123") }
/// catch { error.code == .invalidCountryCode }
/// ```
public struct PhoneNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parse error code. A struct so that codes can be added without breaking clients.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String { case invalidCountryCode = "invalid_country_code", notANumber = "not_a_number", tooShortAfterIDD = "too_short_after_idd", tooShortNSN = "too_short_nsn", tooLong = "too_long" }
        private let value: Value

        /// The country calling code is missing, unknown, or no default region was given.
        public static let invalidCountryCode = Code(value: .invalidCountryCode)
        /// The text does not look like a phone number.
        public static let notANumber = Code(value: .notANumber)
        /// An international prefix (IDD) was followed by too few digits.
        public static let tooShortAfterIDD = Code(value: .tooShortAfterIDD)
        /// The national significant number is shorter than two digits.
        public static let tooShortNSN = Code(value: .tooShortNSN)
        /// The input or the national number is too long.
        public static let tooLong = Code(value: .tooLong)

        /// libphonenumber's name in snake case: `invalid_country_code`, `not_a_number`, ...
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// What to fix, for a person.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.name): \(message)" }
}
