import PhoneNumbers

/// Why a ``TestNumberRegistry`` refused a number, a code or a file.
///
/// The ``message`` says what to fix; the ``code`` is stable for programs.
///
/// ```swift
/// do {
///     try registry.add("+1 650-253-0000", code: "123456")
/// } catch {
///     print(error.code)     // notFictional
///     print(error.message)  // "+16502530000 is not in any fictional range ..."
/// }
/// ```
public struct TestNumberRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason. New reasons may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case unparseable, notFictional, kindNotAccepted, hasExtension, invalidCode, duplicate, full
            case invalidCapacity, invalidJSON, unreadableFile
        }

        private let value: Value

        /// The text could not be parsed as a phone number.
        public static let unparseable = Code(value: .unparseable)
        /// The number is not in any fictional range, so it may belong to a real person.
        public static let notFictional = Code(value: .notFictional)
        /// The number is fictional, but of a kind the registry does not accept.
        public static let kindNotAccepted = Code(value: .kindNotAccepted)
        /// The number has an extension; test numbers are whole numbers.
        public static let hasExtension = Code(value: .hasExtension)
        /// The verification code is not exactly six ASCII digits.
        public static let invalidCode = Code(value: .invalidCode)
        /// The number is already registered.
        public static let duplicate = Code(value: .duplicate)
        /// The registry already holds as many numbers as its capacity allows.
        public static let full = Code(value: .full)
        /// The capacity in a JSON file is not a positive number.
        public static let invalidCapacity = Code(value: .invalidCapacity)
        /// The JSON is malformed or has the wrong shape.
        public static let invalidJSON = Code(value: .invalidJSON)
        /// The file could not be read.
        public static let unreadableFile = Code(value: .unreadableFile)

        /// The reason's name, e.g. `notFictional`.
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }
    }

    /// The reason.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The reason.
    ///   - message: What went wrong and what to do about it.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.name): \(message)" }
}
