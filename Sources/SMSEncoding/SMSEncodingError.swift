/// An error from the GSM 7-bit packing, encoding and decoding functions.
///
/// ```swift
/// do {
///     _ = try GSM7.pack([0x80])
/// } catch {
///     print(error.code, error.message)   // invalidSeptet, "septet 0x80 at index 0 is not 7-bit"
/// }
/// ```
public struct SMSEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error. A struct over a private enum, so that new codes can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case invalidSeptet, invalidFillBits, truncatedData, invalidLength, unencodableCharacter, unavailableTable
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A septet value above 0x7F.
        public static let invalidSeptet = Code(.invalidSeptet)
        /// A fill-bit count outside `0...6`.
        public static let invalidFillBits = Code(.invalidFillBits)
        /// Fewer bytes than the requested number of septets needs.
        public static let truncatedData = Code(.truncatedData)
        /// A negative or otherwise impossible length.
        public static let invalidLength = Code(.invalidLength)
        /// A character that the requested tables cannot encode.
        public static let unencodableCharacter = Code(.unencodableCharacter)
        /// A table that the standard does not define (the Spanish locking-shift table).
        public static let unavailableTable = Code(.unavailableTable)

        public var description: String {
            switch value {
            case .invalidSeptet: "invalidSeptet"
            case .invalidFillBits: "invalidFillBits"
            case .truncatedData: "truncatedData"
            case .invalidLength: "invalidLength"
            case .unencodableCharacter: "unencodableCharacter"
            case .unavailableTable: "unavailableTable"
            }
        }
    }

    /// The kind of error.
    public var code: Code
    /// What went wrong and what to fix, for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
