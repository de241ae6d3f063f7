/// An error from loading a catalog or rendering a message.
///
/// Errors say what to fix. Catalog syntax errors carry the file, the message ID and the
/// 1-based line and column in the file, combining the catalog line with ICU's offset into the
/// pattern:
///
/// ```swift
/// do {
///     _ = try TemplateCatalog(parsing: "login_code = {code is your code", locale: "en", file: "en.txt")
/// } catch {
///     print(error)  // en.txt:1:14: login_code: column 14 ('{'): this '{' is never closed: ...
/// }
/// ```
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. A struct over a private enum, so new codes are not a breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Value: String, Sendable {
            case catalogSyntax, patternSyntax, unsupportedArgument, catalogArgument, invalidLocale,
                 duplicateMessage, fileUnreadable, unknownMessage, missingArgument, argumentType,
                 argumentTooLong, invalidArgument, invalidCode, invalidOrigin, invalidAppHash, formatting,
                 overBudget, missingPluralCategory, exchangeSyntax
        }
        let value: Value
        init(_ value: Value) { self.value = value }

        /// A catalog line is not `id = pattern`, or has a bad escape or ID.
        public static let catalogSyntax = Code(.catalogSyntax)
        /// ICU rejected the MessageFormat pattern.
        public static let patternSyntax = Code(.patternSyntax)
        /// The pattern uses a numbered argument or an argument type templates do not take (date, choice...).
        public static let unsupportedArgument = Code(.unsupportedArgument)
        /// A well-known message lacks a required argument or uses one the renderer never supplies.
        public static let catalogArgument = Code(.catalogArgument)
        /// A catalog's locale (its file name) is not a well-formed BCP 47 tag.
        public static let invalidLocale = Code(.invalidLocale)
        /// A message ID appears twice in one catalog.
        public static let duplicateMessage = Code(.duplicateMessage)
        /// A catalog file or directory could not be read, or is not UTF-8.
        public static let fileUnreadable = Code(.fileUnreadable)
        /// No catalog in the locale chain or the default locale has the message.
        public static let unknownMessage = Code(.unknownMessage)
        /// The message uses an argument the caller did not give.
        public static let missingArgument = Code(.missingArgument)
        /// A text value was given for a number, plural or selectordinal argument, or a number for a select.
        public static let argumentType = Code(.argumentType)
        /// A text value is longer than its limit (64 characters for `appName`).
        public static let argumentTooLong = Code(.argumentTooLong)
        /// A text value is empty after sanitization.
        public static let invalidArgument = Code(.invalidArgument)
        /// The one-time code is not 1 to 16 ASCII letters, digits or hyphens (after digit folding).
        public static let invalidCode = Code(.invalidCode)
        /// The WebOTP origin host is not an ASCII host name.
        public static let invalidOrigin = Code(.invalidOrigin)
        /// The SMS Retriever app hash is not 11 characters of `A-Z a-z 0-9 + /`.
        public static let invalidAppHash = Code(.invalidAppHash)
        /// A catalog message needs more SMS segments in the worst case than its `# @budget`.
        public static let overBudget = Code(.overBudget)
        /// A plural argument lacks a category the catalog's locale needs (Polish `few`, `many`).
        public static let missingPluralCategory = Code(.missingPluralCategory)
        /// An XLIFF or ARB file is not well formed, or lacks what a catalog needs (its locale, a
        /// unit's target, a message's text).
        public static let exchangeSyntax = Code(.exchangeSyntax)
        /// ICU failed while formatting.
        public static let formatting = Code(.formatting)

        public var description: String { value.rawValue }
    }

    /// The kind of error.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The catalog file, when the error comes from one.
    public var file: String?
    /// The message concerned, when known.
    public var messageID: MessageID?
    /// The 1-based line in `file`.
    public var line: Int?
    /// The 1-based column in `line`, counted in Unicode scalars.
    public var column: Int?
    /// The argument concerned, when there is one.
    public var argument: String?

    public init(code: Code, message: String, file: String? = nil, messageID: MessageID? = nil,
                line: Int? = nil, column: Int? = nil, argument: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.messageID = messageID
        self.line = line
        self.column = column
        self.argument = argument
    }

    /// `file:line:column: id: message`, with the parts that are known.
    public var description: String {
        var prefix = ""
        if let file {
            prefix = file
            if let line { prefix += ":\(line)" }
            if let column { prefix += ":\(column)" }
            prefix += ": "
        }
        if let messageID { prefix += "\(messageID): " }
        return prefix + message
    }
}
