import PhoneNumbers

extension PhoneNumberEngine {
    /// The IANA time zones of a number, as libphonenumber's `PhoneNumberToTimeZonesMapper`
    /// (`getTimeZonesForNumber`) gives them.
    ///
    /// An invalid number has no zone. A geographical number (fixed line, fixed line or mobile,
    /// or mobile in the calling codes whose mobile numbers are geographical: +52, +54, +55, +62,
    /// +86) gets the zones of the longest prefix of its E.164 digits in the data; any other
    /// number (toll free, mobile in most countries, ...) the zones of its country calling code.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.timeZones(of: try engine.parse(e164: "+41446681800")).first?.identifier  // "Europe/Zurich"
    /// engine.timeZones(of: try engine.parse(e164: "+79123456789")).count             // 16 (every zone of +7)
    /// ```
    ///
    /// - Returns: The zones, in the data's order; empty when none is known (libphonenumber
    ///   answers `["Etc/Unknown"]`).
    /// - Complexity: the number's type (``PhoneNumberEngine/type(of:)``), then at most nine trie
    ///   steps; no allocation.
    public func timeZones(of number: PhoneNumber) -> PhoneNumberTimeZoneList {
        let type = type(of: number)
        if type == .unknown { return .unknown }
        let geographical = type == .fixedLine || type == .fixedLineOrMobile
            || (type == .mobile && TimeZoneTable.hasGeographicalMobileNumbers(number.countryCode))
        return geographical ? geographicalTimeZones(of: number) : timeZones(forCountryCode: number.countryCode)
    }

    /// The time zones of the longest prefix of the number's E.164 digits, without checking that
    /// the number is valid or geographical (libphonenumber's
    /// `getTimeZonesForGeographicalNumber`).
    ///
    /// ```swift
    /// engine.geographicalTimeZones(of: PhoneNumber(countryCode: 1, nationalNumber: 2_015_550_123))
    /// // America/New_York
    /// ```
    /// - Complexity: at most nine trie steps; no allocation.
    public func geographicalTimeZones(of number: PhoneNumber) -> PhoneNumberTimeZoneList {
        PhoneNumberTimeZoneList(list: TimeZoneTable.list(number))
    }

    /// The time zones of a country calling code: what libphonenumber gives a number that is not
    /// geographical (`getTimeZonesForCountryCallingCode` as PyPI phonenumbers looks it up: the
    /// longest prefix of the code's digits of at least two digits, or the code itself when it has
    /// one digit).
    ///
    /// ```swift
    /// engine.timeZones(forCountryCode: 44).first?.identifier   // "Europe/Guernsey"
    /// engine.timeZones(forCountryCode: 999).isUnknown          // true
    /// ```
    public func timeZones(forCountryCode countryCode: Int) -> PhoneNumberTimeZoneList {
        // PyPI phonenumbers tries the code's first len(code) ... 2 digits (a one-digit code: itself).
        PhoneNumberTimeZoneList(list: TimeZoneTable.list(countryCode: countryCode, minimumLength: countryCode < 10 ? 1 : 2))
    }
}
