import PhoneNumbers

extension PhoneNumberEngine {
    /// The carrier a mobile number's range was originally given to, as libphonenumber's
    /// `PhoneNumberToCarrierMapper.getNameForNumber` answers: only for numbers whose type is
    /// mobile, fixed line or mobile, or pager; nil for any other type, an invalid number, or a
    /// range the data does not name.
    ///
    /// The name is the original allocation: where the region allows mobile number portability
    /// (``isMobileNumberPortable(_:)``), the number may since have moved to another carrier.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// let number = try engine.parse(e164: "+79001234567")
    /// engine.carrierName(of: number, locale: CarrierLocale("ru")!)?.text   // "Tele2"
    /// ```
    /// - Parameters:
    ///   - number: The number.
    ///   - locale: The language wanted; see ``CarrierLocale`` for the fallback order.
    /// - Complexity: the number's type (``PhoneNumberEngine/type(of:)``), then at most nine
    ///   trie steps; no allocation.
    public func carrierName(of number: PhoneNumber, locale: CarrierLocale) -> CarrierName? {
        switch type(of: number) {
        case .mobile, .fixedLineOrMobile, .pager: carrierName(ofValidNumber: number, locale: locale)
        default: nil
        }
    }

    /// The carrier name of the longest prefix of the number's E.164 digits that has one in the
    /// locale, without checking the number's validity or type (libphonenumber's
    /// `getNameForValidNumber`).
    ///
    /// ```swift
    /// engine.carrierName(ofValidNumber: PhoneNumber(countryCode: 40, nationalNumber: 721_234_567), locale: .english)
    /// // Vodafone
    /// ```
    public func carrierName(ofValidNumber number: PhoneNumber, locale: CarrierLocale) -> CarrierName? {
        CarrierTable.name(number, locale).map(CarrierName.init(index:))
    }

    /// The carrier name only when it is safe to show: the number's region does not allow mobile
    /// number portability (libphonenumber's `getSafeDisplayName`).
    ///
    /// ```swift
    /// engine.safeCarrierName(of: try engine.parse(e164: "+40721234567"), locale: .english)  // nil: RO ports numbers
    /// ```
    public func safeCarrierName(of number: PhoneNumber, locale: CarrierLocale) -> CarrierName? {
        if let region = region(of: number), isMobileNumberPortable(region) { return nil }
        return carrierName(of: number, locale: locale)
    }

    /// Whether the region's metadata says it allows mobile number portability
    /// (libphonenumber's `isMobileNumberPortableRegion`): if so, a carrier name is the range's
    /// original carrier and may be stale. False for unknown regions and "001".
    ///
    /// ```swift
    /// engine.isMobileNumberPortable("GB")   // true
    /// ```
    public func isMobileNumberPortable(_ region: RegionCode) -> Bool {
        let identifier = region.identifier  // two or three bytes: a small string, no allocation
        var bytes = identifier.utf8.makeIterator()
        guard let a = bytes.next(), let b = bytes.next(), bytes.next() == nil,
              (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(a), (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(b)
        else { return false }
        return CarrierTable.isPortable(letterIndex: Int(a - UInt8(ascii: "A")) * 26 + Int(b - UInt8(ascii: "A")))
    }
}
