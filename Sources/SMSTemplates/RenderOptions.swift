/// How a message is rendered and delivered.
///
/// ```swift
/// var options = RenderOptions()
/// options.webOTPOrigin = "example.com"        // appends "@example.com #042917" as the last line
/// options.smsRetrieverAppHash = "FA+9qCX9VSu" // Android SMS Retriever
/// options.segmentBudget = 1                   // warn if the SMS needs more than one segment
/// options.latinDigits = true                  // 5, not ۵, in Persian
/// ```
public struct RenderOptions: Sendable, Hashable {
    /// Whether numbers other than the code (e.g. `{minutes}`) use Latin digits whatever the
    /// locale's default numbering system is. A request tag with `-u-nu-latn` has the same effect.
    /// The code is never localized: it is text and stays ASCII.
    ///
    /// Without it, numbers use the requested locale's numbering system, region included: CLDR's
    /// default (Extended Arabic-Indic for `fa`), except Latin for `ar` (every region) and `bn`,
    /// `mr`, `ne`, `as`, whose SMS write numbers in ASCII beside the ASCII code. A `-u-nu-` keyword
    /// in the request picks any other decimal system (`ar-u-nu-arab`, `bn-u-nu-beng`), unless the
    /// message is GSM-7 text that those digits would make UCS-2 (`en-u-nu-arab`).
    public var latinDigits: Bool

    /// When to wrap the app name in Unicode bidi isolates, U+2068 FIRST STRONG ISOLATE … U+2069 POP
    /// DIRECTIONAL ISOLATE.
    public enum BidiIsolation: Sendable, Hashable {
        /// Only where the Unicode Bidirectional Algorithm would otherwise reorder the name with the
        /// text around it. In a right-to-left message: a name that starts or ends with a digit,
        /// space or punctuation (`Acme 2`, `(Acme)`, `24`) or mixes directions; `Acme` goes bare.
        /// In a left-to-right message: a right-to-left name that does the same, or contains Arabic
        /// letters (digits after them would become Arabic numbers). Right-to-left messages that
        /// would begin with left-to-right text get a U+200F RIGHT-TO-LEFT MARK in front. Isolates
        /// cost 2 UCS-2 units each and older handsets may show them as boxes.
        case automatic
        /// Never add isolates or marks.
        case never
    }

    /// When to isolate the app name. Default `.automatic`.
    public var bidiIsolation: BidiIsolation

    /// The host for the WebOTP origin-bound code line (`@example.com #123456`), appended as the
    /// last line. ASCII host name, optional `:port`; use the punycode (`xn--`) form of an IDN.
    public var webOTPOrigin: String?

    /// The 11-character Android SMS Retriever app hash (`A-Z a-z 0-9 + /`), appended on its own
    /// line (before the WebOTP line, if both are set, since WebOTP needs the last line).
    public var smsRetrieverAppHash: String?

    /// The largest number of SMS segments the caller wants; more gives a warning diagnostic.
    /// Nil (the default) uses the catalog's `# @budget` for the message (the bundled catalogs
    /// declare 1 for every message).
    public var segmentBudget: Int?

    /// How much SMS encoding analysis goes into the result.
    public enum EncodingAnalysis: Sendable, Hashable {
        /// `SMSEncoder.analyze`: encoding, national tables, segment count, parts with headers,
        /// unencodable characters and suggestions. The default.
        case full
        /// Only `SMSEncoder.segmentCount`, which does not allocate; `RenderedMessage.encoding` is
        /// nil. For gateways that render at high rates and need only the segment count.
        case segmentCountOnly
    }

    /// How much SMS encoding analysis goes into the result. Default `.full`.
    public var encodingAnalysis: EncodingAnalysis

    /// Creates options; the defaults render the catalog message only.
    public init(latinDigits: Bool = false, bidiIsolation: BidiIsolation = .automatic, webOTPOrigin: String? = nil,
                smsRetrieverAppHash: String? = nil, segmentBudget: Int? = nil, encodingAnalysis: EncodingAnalysis = .full) {
        self.latinDigits = latinDigits
        self.bidiIsolation = bidiIsolation
        self.webOTPOrigin = webOTPOrigin
        self.smsRetrieverAppHash = smsRetrieverAppHash
        self.segmentBudget = segmentBudget
        self.encodingAnalysis = encodingAnalysis
    }
}
