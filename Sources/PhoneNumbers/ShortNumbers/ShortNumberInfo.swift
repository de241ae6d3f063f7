/// What the short-number data says of an input in its default region: reported by
/// ``PhoneNumberEngine/check(_:defaultRegion:)`` as ``PhoneNumberCheck/shortNumber`` when the
/// input, written without a plus sign, is not a valid phone number but is a short number (or an
/// emergency number) there.
///
/// A gateway should never send an OTP to an emergency number, and premium-rate short codes are
/// how SMS pumping fraud makes money: both show here instead of a bare "invalid".
///
/// ```swift
/// let check = PhoneNumberEngine().check("911", defaultRegion: "US")
/// check.isValid                      // false
/// check.shortNumber?.isEmergency     // true
/// check.shortNumber?.cost            // .tollFree
/// ```
public struct ShortNumberInfo: Sendable, Hashable {
    /// The region the short number was dialled in (the check's default region).
    public var region: RegionCode
    /// Whether it matches a short-code pattern of the region
    /// (``PhoneNumberEngine/isValidShortNumber(_:forRegion:)``).
    public var isValid: Bool
    /// Its expected cost in the region (``PhoneNumberEngine/expectedCost(of:forRegion:)``).
    public var cost: ShortNumberCost
    /// Whether the input, as dialled, is an emergency number of the region
    /// (``PhoneNumberEngine/isEmergencyNumber(_:region:)``).
    public var isEmergency: Bool
    /// Whether it is carrier specific in the region
    /// (``PhoneNumberEngine/isCarrierSpecific(_:forRegion:)``).
    public var isCarrierSpecific: Bool
    /// Whether it is an SMS service in the region (``PhoneNumberEngine/isSMSServiceNumber(_:forRegion:)``).
    public var isSMSService: Bool

    /// Creates the facts from their parts (``PhoneNumberEngine/shortNumberInfo(_:text:region:)``
    /// makes them).
    public init(region: RegionCode, isValid: Bool, cost: ShortNumberCost, isEmergency: Bool,
                isCarrierSpecific: Bool, isSMSService: Bool) {
        self.region = region
        self.isValid = isValid
        self.cost = cost
        self.isEmergency = isEmergency
        self.isCarrierSpecific = isCarrierSpecific
        self.isSMSService = isSMSService
    }
}

extension PhoneNumberEngine {
    /// The short-number facts of a parsed input in `region`, or `nil` when it is neither a valid
    /// short number nor an emergency number there.
    ///
    /// - Parameters:
    ///   - number: The input parsed with `region` as its default region.
    ///   - text: The input as dialled (the emergency test reads it: "+1 911" is not an emergency
    ///     number, "911" is).
    ///   - region: The region the input is dialled in.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// let number = try engine.parse("112", defaultRegion: "DE")
    /// engine.shortNumberInfo(number, text: "112", region: "DE")?.isEmergency   // true
    /// ```
    public func shortNumberInfo(_ number: PhoneNumber, text: String, region: RegionCode) -> ShortNumberInfo? {
        _shortNumberInfo(number, region: region, isEmergency: isEmergencyNumber(text, region: region))
    }

    /// The short-number facts of a number that is not valid, parsed from an input given with its
    /// calling code (a plus sign: `+91 1171627`), as libphonenumber's ShortNumberInfo answers for
    /// the number's region: with `defaultRegion` when it is a region of the number's calling code
    /// (`isValidShortNumberForRegion` and the others for it), else with the region
    /// `isValidShortNumber` picks (the calling code's only region, or the first where the number
    /// is a short code). Never an emergency number: a plus sign does not reach one. A premium-rate
    /// short code written in international form is still one to pay for, so it is reported.
    func _shortNumberInfo(givenWithCallingCode number: PhoneNumber, defaultRegion: RegionCode) -> ShortNumberInfo? {
        if _shortRegion(defaultRegion, number.countryCode) != nil {
            return _shortNumberInfo(number, region: defaultRegion, isEmergency: false)
        }
        let regions = _ShortNumberTable.regions(ofCallingCode: number.countryCode)
        let own: Int? = number.withNationalSignificantNumber { digits in
            if regions.count == 1 { return regions[0] == _ShortNumberTable.none ? nil : Int(regions[0]) }
            return _firstShortCodeRegion(regions, digits)
        }
        guard let own else { return nil }
        return _shortNumberInfo(number, region: _ShortNumberTable.code(own), isEmergency: false)
    }

    /// ``shortNumberInfo(_:text:region:)`` once the emergency test of the text is done (over a
    /// String or over bytes).
    func _shortNumberInfo(_ number: PhoneNumber, region: RegionCode, isEmergency emergency: Bool) -> ShortNumberInfo? {
        let valid = isValidShortNumber(number, forRegion: region)
        guard valid || emergency else { return nil }
        return ShortNumberInfo(
            region: region, isValid: valid, cost: expectedCost(of: number, forRegion: region), isEmergency: emergency,
            isCarrierSpecific: isCarrierSpecific(number, forRegion: region),
            isSMSService: isSMSServiceNumber(number, forRegion: region))
    }
}
