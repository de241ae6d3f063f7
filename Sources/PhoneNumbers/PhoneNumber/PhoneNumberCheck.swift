/// Everything the engine says about one input: the parse result or its error, and for a parsed
/// number its possibility, validity, type, region, fictional range and E.164 text. One per input
/// of ``PhoneNumberEngine/check(_:defaultRegion:)``, ``PhoneNumberEngine/check(utf8:defaultRegion:)``
/// and ``PhoneNumberEngine/checkBatch(_:concurrency:)``.
///
/// ```swift
/// let check = engine.check("(650) 253-0000", defaultRegion: "US")
/// check.e164      // "+16502530000"
/// check.type      // .fixedLineOrMobile
/// check.number?.e164?.withUTF8 { output.append(contentsOf: $0) }   // the same text, no String
/// ```
public struct PhoneNumberCheck: Sendable, Hashable {
    /// Why parsing failed, or `nil`.
    public var error: PhoneNumberError?
    /// The parsed number, or `nil` when parsing failed.
    public var number: PhoneNumber?
    /// The length check; `nil` when parsing failed.
    public var possibility: PhoneNumberPossibility?
    /// Whether the number is valid (false when parsing failed).
    public var isValid: Bool
    /// The number type (``PhoneNumberType/unknown`` when invalid or not parsed).
    public var type: PhoneNumberType
    /// The number's region, "001" for non-geographic entities, `nil` when unknown.
    public var region: RegionCode?
    /// The fictional range the number falls in, valid or not, or `nil`.
    public var fictional: FictionalRange?
    /// When the input is not a valid number but is a short number or an emergency number of the
    /// default region ("911" in the US, "112" in Germany): its cost, emergency and other facts.
    /// `nil` otherwise, for input written with a plus sign ("+1 911" is a number of calling
    /// code 1, not a short number), and for checks without a default region or of a parsed number.
    public var shortNumber: ShortNumberInfo? = nil

    /// The number in E.164, or `nil` when parsing failed: ``PhoneNumberEngine/formatE164(_:)`` of
    /// ``number``, made when asked. ``PhoneNumber/e164`` (`check.number?.e164`) is the same text
    /// without a `String`, and ``PhoneNumber/writeE164(into:)`` writes it into a buffer.
    public var e164: String? { number?._e164String }
}

extension PhoneNumberCheck {
    // In an extension, so that the struct keeps its implicit memberwise initializer (`error`
    // first), which these call: an initializer that assigns the properties one by one compiles
    // to building the value, copying it whole (retaining its Strings) and destroying the first,
    // on every check.

    /// Creates a check from its parts (the engine's `check` methods make them).
    public init(
        number: PhoneNumber?, error: PhoneNumberError?, possibility: PhoneNumberPossibility?, isValid: Bool,
        type: PhoneNumberType, region: RegionCode?, fictional: FictionalRange?
    ) {
        self.init(error: error, number: number, possibility: possibility, isValid: isValid, type: type,
                  region: region, fictional: fictional)
    }

    /// Creates a check from its parts; `e164` is ``number``'s E.164 text, not stored.
    @available(*, deprecated, message: "e164 is the number's E.164 text; use init(number:error:possibility:isValid:type:region:fictional:)")
    public init(
        number: PhoneNumber?, error: PhoneNumberError?, possibility: PhoneNumberPossibility?, isValid: Bool,
        type: PhoneNumberType, region: RegionCode?, fictional: FictionalRange?, e164: String?
    ) {
        self.init(number: number, error: error, possibility: possibility, isValid: isValid, type: type,
                  region: region, fictional: fictional)
    }
}

/// One input of a batch: the text and the default region for national numbers (`nil`: none).
public struct PhoneNumberInput: Sendable, Hashable {
    public var text: String
    public var defaultRegion: RegionCode?

    public init(_ text: String, defaultRegion: RegionCode? = nil) {
        self.text = text
        self.defaultRegion = defaultRegion
    }
}
