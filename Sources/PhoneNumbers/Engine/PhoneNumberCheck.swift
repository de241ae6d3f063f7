/// Everything the engine says about one input: the parse result or its error, and for a parsed
/// number its possibility, validity, type, region and fictional range. One per input of
/// ``PhoneNumberEngine/check(_:defaultRegion:)`` and ``PhoneNumberEngine/checkBatch(_:)``.
public struct PhoneNumberCheck: Sendable, Hashable {
    /// The parsed number, or `nil` when parsing failed.
    public var number: PhoneNumber?
    /// The number in E.164, or `nil` when parsing failed.
    public var e164: String?
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
}

extension PhoneNumberCheck {
    // In an extension, so that the struct keeps its implicit memberwise initializer (`e164` comes
    // second there), which this one calls. An initializer that assigns the properties one by one
    // compiles to building the value, copying it whole (retaining its three Strings) and
    // destroying the first: ~180 instructions a check, more than the rest of checking an E.164
    // number costs.
    public init(
        number: PhoneNumber?, error: PhoneNumberError?, possibility: PhoneNumberPossibility?, isValid: Bool,
        type: PhoneNumberType, region: RegionCode?, fictional: FictionalRange?, e164: String?
    ) {
        self.init(number: number, e164: e164, error: error, possibility: possibility, isValid: isValid, type: type,
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
