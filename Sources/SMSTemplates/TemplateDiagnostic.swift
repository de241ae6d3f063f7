/// Something the renderer wants you to know that did not stop it: a locale that fell back,
/// an argument the message ignores, a message longer than the segment budget.
///
/// ```swift
/// for diagnostic in rendered.diagnostics where diagnostic.severity == .warning {
///     log.warning("\(diagnostic)")
/// }
/// ```
public struct TemplateDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How much the diagnostic matters.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Expected behaviour worth recording (e.g. `es-MX` used its CLDR parent `es-419`).
        case note
        /// The result may not be what the caller wanted (default locale used, over budget).
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .note && rhs == .warning }
    }

    /// What the diagnostic is about. A struct over a private enum, so new codes are not a breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Value: String, Sendable {
            case localeNotRecognized, localeCanonicalized, parentLocale, defaultLocale, messageFallback,
                 numberingSystemIgnored, unusedArgument, argumentSanitized, codeDigitsFolded,
                 bidiIsolated, rightToLeftMark, leftToRightMark, deliveryOrder, overSegmentBudget
        }
        let value: Value
        init(_ value: Value) { self.value = value }

        /// The locale string was not a well-formed tag (garbage, empty, too long); the default was used.
        public static let localeNotRecognized = Code(.localeNotRecognized)
        /// ICU's CLDR aliases replaced the tag (`iw` → `he`, `in` → `id`, `tl` → `fil`).
        public static let localeCanonicalized = Code(.localeCanonicalized)
        /// The catalog of a CLDR parent locale was used (`es-MX` → `es-419`, `pt-AO` → `pt-PT`).
        public static let parentLocale = Code(.parentLocale)
        /// No catalog matched the locale chain; the configured default locale was used.
        public static let defaultLocale = Code(.defaultLocale)
        /// The matched catalog lacks the message; a later locale in the chain had it.
        public static let messageFallback = Code(.messageFallback)
        /// A `-u-nu-` numbering system in the tag was ignored: it is not a decimal system ICU knows.
        public static let numberingSystemIgnored = Code(.numberingSystemIgnored)
        /// An argument was given that the message does not use.
        public static let unusedArgument = Code(.unusedArgument)
        /// Control or bidi-override characters were removed from an argument value.
        public static let argumentSanitized = Code(.argumentSanitized)
        /// Non-ASCII decimal digits in the code were folded to ASCII (autofill reads ASCII only).
        public static let codeDigitsFolded = Code(.codeDigitsFolded)
        /// The app name was wrapped in bidi isolates (FSI…PDI): its edges are digits or punctuation, it
        /// mixes directions, or it has right-to-left letters in a left-to-right message (see `RenderOptions.BidiIsolation`).
        public static let bidiIsolated = Code(.bidiIsolated)
        /// A right-to-left message began with left-to-right text (e.g. a Latin app name); a U+200F
        /// RIGHT-TO-LEFT MARK was put in front so every handset lays it out right to left.
        public static let rightToLeftMark = Code(.rightToLeftMark)
        /// A left-to-right message began with right-to-left letters (e.g. a Hebrew app name in front);
        /// a U+200E LEFT-TO-RIGHT MARK was put in front so every handset lays it out left to right.
        public static let leftToRightMark = Code(.leftToRightMark)
        /// Both WebOTP and an SMS Retriever hash were requested; the hash line precedes the WebOTP line.
        public static let deliveryOrder = Code(.deliveryOrder)
        /// The message needs more SMS segments than the caller's budget.
        public static let overSegmentBudget = Code(.overSegmentBudget)

        public var description: String { value.rawValue }
    }

    /// How much the diagnostic matters.
    public var severity: Severity
    /// What it is about.
    public var code: Code
    /// A sentence for logs and users.
    public var message: String

    public init(severity: Severity, code: Code, message: String) {
        self.severity = severity
        self.code = code
        self.message = message
    }

    public var description: String { "\(severity.rawValue): \(message) [\(code)]" }
}
