// How to dial a number from somewhere: libphonenumber's format_out_of_country_calling_number,
// format_number_for_mobile_dialing and can_be_internationally_dialled.

extension PhoneNumberEngine {
    /// The number as dialled from `region`, as libphonenumber's `formatOutOfCountryCallingNumber`:
    /// the region's international prefix, the calling code and the international format; the
    /// national format when the number has the region's calling code ("1 " before it between
    /// NANPA regions).
    ///
    /// The prefix is the region's preferred one ("8~10" from Russia: dial 8, wait for the tone,
    /// 10), else its only one ("00", "011"); a region with several and no preferred one gets "+"
    /// (the international format). An unknown `region` gives the international format; an
    /// unknown calling code the bare national significant number.
    ///
    /// ```swift
    /// let number = try engine.parse("+44 20 7031 3000", defaultRegion: nil)
    /// engine.formatOutOfCountry(number, callingFrom: "US")   // "011 44 20 7031 3000"
    /// engine.formatOutOfCountry(number, callingFrom: "DE")   // "00 44 20 7031 3000"
    /// engine.formatOutOfCountry(number, callingFrom: "GB")   // "020 7031 3000"
    /// ```
    ///
    /// - Parameters:
    ///   - number: The number; its extension is kept, as in the international format.
    ///   - region: The region the call is made from.
    /// - Returns: The text to dial, with spaces and the format's punctuation.
    public func formatOutOfCountry(_ number: PhoneNumber, callingFrom region: RegionCode) -> String {
        guard let from = tables.regionIndex(region) else { return format(number, as: .international) }
        guard tables.mainRegion(forCallingCode: number.countryCode) != nil else { return number.nationalSignificantNumber }
        let fromCode = Int(tables.core[from].countryCode)
        if number.countryCode == 1 {
            if fromCode == 1 { return "1 " + format(number, as: .national) }
        } else if number.countryCode == fromCode {
            return format(number, as: .national)
        }
        let international = format(number, as: .international)
        guard let prefix = _internationalPrefixForFormatting(from) else { return international }
        // The international format is "+", the code, a space and the rest: the prefix replaces "+".
        return prefix + " " + international.dropFirst()
    }

    /// Whether the number can be dialled from outside its region, as libphonenumber's
    /// `canBeInternationallyDialled`: false for the region's numbers that the metadata marks as
    /// reachable from inside only (many toll-free and shared-cost ranges: 1800 numbers in
    /// Australia, 0800 in Eswatini); true for everything else, invalid numbers included.
    ///
    /// ```swift
    /// engine.canBeInternationallyDialled(try engine.parse("1800 123 456", defaultRegion: "AU"))   // false
    /// engine.canBeInternationallyDialled(try engine.parse("+61 2 1234 5678", defaultRegion: nil)) // true
    /// ```
    ///
    /// - Complexity: O(n) in the number's digits, no allocation.
    public func canBeInternationallyDialled(_ number: PhoneNumber) -> Bool {
        guard let region = region(of: number), let index = tables.regionIndex(region) else { return true }
        let record = store.regions[index]
        guard record.noInternationalDiallingDFA >= 0 else { return true }
        return number.withNationalSignificantNumber { nsn in
            let lengths = record.noInternationalDiallingLengths
            if lengths != 0, nsn.count >= 32 || lengths & (1 << UInt32(nsn.count)) == 0 { return true }
            return !_DFA.fullyMatches(tables.words, record.noInternationalDiallingDFA, nsn)
        }
    }

    /// The number as a mobile phone in `region` dials it, as libphonenumber's
    /// `formatNumberForMobileDialing`: the national format inside the number's region (the
    /// international one where mobiles need it: +1 numbers of a dialable length, non-geographic
    /// numbers, Mexican, Chilean and Uzbek fixed and mobile numbers), the international format
    /// (E.164 without formatting) from elsewhere, and "" when the number cannot be dialled from
    /// `region`: invalid numbers from abroad, numbers reachable from inside only, Brazilian fixed
    /// and mobile numbers (which need a carrier code this model does not keep).
    ///
    /// ```swift
    /// let number = try engine.parse("+44 20 7031 3000", defaultRegion: nil)
    /// engine.formatForMobileDialing(number, callingFrom: "GB", withFormatting: true)    // "020 7031 3000"
    /// engine.formatForMobileDialing(number, callingFrom: "US", withFormatting: false)   // "+442070313000"
    /// ```
    ///
    /// - Parameters:
    ///   - number: The number; its extension is left out.
    ///   - region: The region the mobile is in. The comparison is with the main region of the
    ///     number's calling code (the US for every +1 number), as in libphonenumber.
    ///   - withFormatting: false keeps only what is dialled: digits, `+`, `*` and `#`.
    /// - Returns: The text to dial, or "" when there is none.
    public func formatForMobileDialing(_ number: PhoneNumber, callingFrom region: RegionCode, withFormatting: Bool) -> String {
        guard let main = mainRegion(forCountryCode: number.countryCode) else { return "" }
        var number = number
        number.extension = nil
        let type = type(of: number)
        var formatted = ""
        if region == main {
            let fixedOrMobile = type == .fixedLine || type == .mobile || type == .fixedLineOrMobile
            if main.identifier == "BR" && fixedOrMobile {
                formatted = ""
            } else if number.countryCode == 1 {
                let dialable = canBeInternationallyDialled(number) && tables.regionIndex(region).map { index in
                    _possibility(length: number.withNationalSignificantNumber { $0.count }, region: tables.core[index]) != .tooShort
                } ?? false
                formatted = format(number, as: dialable ? .international : .national)
            } else {
                let international = (main == .nonGeographic
                    || (["MX", "CL", "UZ"].contains(main.identifier) && fixedOrMobile)) && canBeInternationallyDialled(number)
                formatted = format(number, as: international ? .international : .national)
            }
        } else if type != .unknown && canBeInternationallyDialled(number) {
            return format(number, as: withFormatting ? .international : .e164)
        }
        if withFormatting { return formatted }
        return String(decoding: formatted.utf8.filter { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2A || $0 == 0x23 },
                      as: UTF8.self)
    }

    /// The international prefix a region's numbers are written with: its preferred one, else its
    /// only one when it is plain digits; nil (write "+") when it has several.
    func _internationalPrefixForFormatting(_ index: Int) -> String? {
        if let preferred = store.regions[index].preferredInternationalPrefix { return preferred }
        let core = tables.core[index]
        guard core.literalIDDLength > 0 else { return nil }
        var digits = ""
        for k in 0..<Int(core.literalIDDLength) {
            digits.unicodeScalars.append(Unicode.Scalar(0x30 + UInt8((core.literalIDD >> (4 * UInt32(k))) & 0xF)))
        }
        return digits
    }
}
