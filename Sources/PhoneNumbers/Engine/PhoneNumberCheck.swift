/// Everything the engine says about one input: the parse result or its error, and for a parsed
/// number its possibility, validity, type, region and fictional range. One per input of
/// ``PhoneNumberEngine/check(_:defaultRegion:)`` and ``PhoneNumberEngine/checkBatch(_:)``.
public struct PhoneNumberCheck: Sendable, Hashable {
    /// The parsed number, or `nil` when parsing failed.
    public var number: PhoneNumber?
    /// Why parsing failed, or `nil`.
    public var error: PhoneNumberError?
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
    /// The number in E.164, or `nil` when parsing failed.
    public var e164: String?

    public init(
        number: PhoneNumber?, error: PhoneNumberError?, possibility: PhoneNumberPossibility?, isValid: Bool,
        type: PhoneNumberType, region: RegionCode?, fictional: FictionalRange?, e164: String?
    ) {
        self.number = number
        self.error = error
        self.possibility = possibility
        self.isValid = isValid
        self.type = type
        self.region = region
        self.fictional = fictional
        self.e164 = e164
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
