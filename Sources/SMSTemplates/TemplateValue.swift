/// A value for a named template argument.
///
/// Text is always a value, never template syntax: `{`, `}`, `#` and `'` in it are printed as they
/// are. Numbers are formatted by ICU in the message's locale (Persian digits in `fa` unless
/// Latin digits are forced), and select plural forms.
///
/// ```swift
/// let arguments: [String: TemplateValue] = ["code": "042917", "appName": "Acme", "minutes": 10]
/// ```
public enum TemplateValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, CustomStringConvertible
{
    /// Text, inserted after sanitization (control and bidi-override characters removed).
    case text(String)
    /// An integer, for `{n, number}`, `{n, plural, ...}` or `{n}`.
    case integer(Int)
    /// A floating-point number, for `{n, number}` or `{n, plural, ...}`.
    case decimal(Double)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .decimal(value) }

    public var description: String {
        switch self {
        case .text(let value): return value
        case .integer(let value): return String(value)
        case .decimal(let value): return String(value)
        }
    }
}
