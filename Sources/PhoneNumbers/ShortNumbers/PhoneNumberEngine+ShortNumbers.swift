import CShortNumberTables

// Short numbers: libphonenumber's ShortNumberInfo over the generated short-number DFAs
// (CShortNumberTables, tools/metadata/generate_short_numbers.py). Every question is one DFA walk
// over the national significant number (a few digits) and a look at the possible lengths: no
// allocation, nothing decoded.

extension PhoneNumberEngine {
    /// Whether a number has the length of a short number in one of the regions of its calling
    /// code (libphonenumber's `isPossibleShortNumber`).
    ///
    /// More lenient than ``isValidShortNumber(_:)``: only the number of digits is checked.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isPossibleShortNumber(PhoneNumber(countryCode: 33, nationalNumber: 123456))  // true
    /// ```
    public func isPossibleShortNumber(_ number: PhoneNumber) -> Bool {
        number.withNationalSignificantNumber { digits in
            for region in _ShortNumberTable.regions(ofCallingCode: number.countryCode) where region != _ShortNumberTable.none {
                if _ShortNumberTable.lengthAllowed(Int(region), _ShortNumberBits.general, digits.count) { return true }
            }
            return false
        }
    }

    /// Whether a number has the length of a short number when dialled in `region`
    /// (libphonenumber's `isPossibleShortNumberForRegion`).
    ///
    /// False when the number's calling code is not the region's.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isPossibleShortNumber(PhoneNumber(countryCode: 1, nationalNumber: 911), forRegion: "US")  // true
    /// ```
    public func isPossibleShortNumber(_ number: PhoneNumber, forRegion region: RegionCode) -> Bool {
        guard let r = _shortRegion(region, number.countryCode) else { return false }
        return number.withNationalSignificantNumber { _ShortNumberTable.lengthAllowed(r, _ShortNumberBits.general, $0.count) }
    }

    /// Whether a number matches a short-number pattern of one of the regions of its calling code
    /// (libphonenumber's `isValidShortNumber`).
    ///
    /// For a calling code shared by several regions, the first region (in libphonenumber's
    /// order) where the number is a short code decides. Validity says nothing of whether the
    /// number is in service.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isValidShortNumber(PhoneNumber(countryCode: 1, nationalNumber: 911))  // true
    /// ```
    public func isValidShortNumber(_ number: PhoneNumber) -> Bool {
        number.withNationalSignificantNumber { digits in
            let regions = _ShortNumberTable.regions(ofCallingCode: number.countryCode)
            if regions.count > 1 { return _firstShortCodeRegion(regions, digits) != nil }
            guard regions.count == 1, regions[0] != _ShortNumberTable.none else { return false }
            return _isValidShort(Int(regions[0]), digits)
        }
    }

    /// Whether a number matches a short-number pattern of `region` (libphonenumber's
    /// `isValidShortNumberForRegion`).
    ///
    /// False when the number's calling code is not the region's.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isValidShortNumber(PhoneNumber(countryCode: 33, nationalNumber: 112), forRegion: "FR")  // true
    /// ```
    public func isValidShortNumber(_ number: PhoneNumber, forRegion region: RegionCode) -> Bool {
        guard let r = _shortRegion(region, number.countryCode) else { return false }
        return number.withNationalSignificantNumber { _isValidShort(r, $0) }
    }

    /// The expected cost of a short number dialled in `region` (libphonenumber's
    /// `expectedCostForRegion`).
    ///
    /// Nothing is implied about validity: check ``isValidShortNumber(_:forRegion:)`` first when
    /// it matters. Emergency numbers are toll free; a number of another calling code, or of a
    /// length that is not a short number's, is ``ShortNumberCost/unknownCost``.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 24280), forRegion: "US")  // .premiumRate
    /// ```
    public func expectedCost(of number: PhoneNumber, forRegion region: RegionCode) -> ShortNumberCost {
        guard let r = _shortRegion(region, number.countryCode) else { return .unknownCost }
        return number.withNationalSignificantNumber { _cost(r, $0) }
    }

    /// The expected cost of a short number in the regions of its calling code (libphonenumber's
    /// `expectedCost`).
    ///
    /// With one region, ``expectedCost(of:forRegion:)`` of that region. With several, the
    /// highest in the order premium rate, unknown, standard rate, toll free (unknown ranks above
    /// standard rate because it may be premium). Prefer the region-specific form when the
    /// region the number is dialled from is known.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 112))  // .unknownCost: not
    /// // toll free in every region of +1 (in the US alone: .tollFree)
    /// ```
    public func expectedCost(of number: PhoneNumber) -> ShortNumberCost {
        number.withNationalSignificantNumber { digits in
            let regions = _ShortNumberTable.regions(ofCallingCode: number.countryCode)
            var result = ShortNumberCost.tollFree
            guard !regions.isEmpty else { return .unknownCost }
            for region in regions {
                let cost = region == _ShortNumberTable.none ? .unknownCost : _cost(Int(region), digits)
                if regions.count == 1 { return cost }
                switch cost {
                case .premiumRate, .unknownCost: return cost
                case .standardRate: result = .standardRate
                case .tollFree: break
                }
            }
            return result
        }
    }

    /// Whether `text`, exactly as dialled in `region`, is an emergency number there
    /// (libphonenumber's `isEmergencyNumber`).
    ///
    /// Formatting is allowed ("1-1-2"), extra digits are not. Text starting with a plus sign is
    /// never an emergency number: "+1 911" is a number of calling code 1, not 911. Leading
    /// characters that cannot start a number are skipped, digits of any script count, and a
    /// second number after "/x" is ignored, as libphonenumber does.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isEmergencyNumber("911", region: "US")    // true
    /// engine.isEmergencyNumber("9110", region: "US")   // false
    /// ```
    public func isEmergencyNumber(_ text: String, region: RegionCode) -> Bool {
        _matchesEmergency(text, region, allowingPrefix: false)
    }

    /// Whether `text`, exactly as dialled in `region`, may connect to an emergency service there
    /// (libphonenumber's `connectsToEmergencyNumber`).
    ///
    /// Like ``isEmergencyNumber(_:region:)``, but digits after an emergency number are allowed
    /// ("9111" connects to 911), except in Brazil, Chile and Nicaragua, where the number must be
    /// exact.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.connectsToEmergencyNumber("9116", region: "US")   // true
    /// engine.connectsToEmergencyNumber("1900", region: "BR")   // false
    /// ```
    public func connectsToEmergencyNumber(_ text: String, region: RegionCode) -> Bool {
        _matchesEmergency(text, region, allowingPrefix: true)
    }

    /// Whether a short number is carrier specific in the region of its calling code where it is
    /// a short code (libphonenumber's `isCarrierSpecific`): it may connect elsewhere, or not at
    /// all, depending on the caller's carrier.
    ///
    /// Nothing is implied about validity.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isCarrierSpecific(PhoneNumber(countryCode: 1, nationalNumber: 33669))  // true
    /// ```
    public func isCarrierSpecific(_ number: PhoneNumber) -> Bool {
        number.withNationalSignificantNumber { digits in
            let regions = _ShortNumberTable.regions(ofCallingCode: number.countryCode)
            let region: Int?
            if regions.count > 1 {
                region = _firstShortCodeRegion(regions, digits)
            } else {
                region = regions.first.flatMap { $0 == _ShortNumberTable.none ? nil : Int($0) }
            }
            guard let r = region else { return false }
            return _ShortNumberTable.matches(_ShortNumberTable.label(r, digits), _ShortNumberBits.carrierSpecific, r, digits.count)
        }
    }

    /// Whether a short number is carrier specific when dialled in `region` (libphonenumber's
    /// `isCarrierSpecificForRegion`); false when the number's calling code is not the region's.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isCarrierSpecific(PhoneNumber(countryCode: 1, nationalNumber: 33669), forRegion: "US")  // true
    /// ```
    public func isCarrierSpecific(_ number: PhoneNumber, forRegion region: RegionCode) -> Bool {
        _shortDescription(number, region, _ShortNumberBits.carrierSpecific)
    }

    /// Whether a short number is an SMS service when dialled in `region` (libphonenumber's
    /// `isSmsServiceForRegion`): its main or only use is to send or receive text messages.
    ///
    /// False when the number's calling code is not the region's; nothing is implied about
    /// validity.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// engine.isSMSServiceNumber(PhoneNumber(countryCode: 1, nationalNumber: 21234), forRegion: "US")  // true
    /// ```
    public func isSMSServiceNumber(_ number: PhoneNumber, forRegion region: RegionCode) -> Bool {
        _shortDescription(number, region, _ShortNumberBits.smsServices)
    }

    // MARK: - Internals

    /// Whether the first character of the UTF-8 input that can start a number (a plus sign or a
    /// digit of any script) is a plus sign: such an input is not dialled as a short number.
    func _startsWithPlus(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let (c, length) = _scalar(bytes, at: i)
            if _Chars.isPlus(c) { return true }
            if _UnicodeClasses.isDecimal(c) { return false }
            i &+= length
        }
        return false
    }

    /// The short-number region of `region` when it is one of calling code `code`'s regions.
    @inline(__always)
    func _shortRegion(_ region: RegionCode, _ code: Int) -> Int? {
        guard let r = _ShortNumberTable.region(region), _ShortNumberTable.callingCode(code, includes: r) else { return nil }
        return r
    }

    func _shortDescription(_ number: PhoneNumber, _ region: RegionCode, _ bit: UInt16) -> Bool {
        guard let r = _shortRegion(region, number.countryCode) else { return false }
        return number.withNationalSignificantNumber {
            _ShortNumberTable.matches(_ShortNumberTable.label(r, $0), bit, r, $0.count)
        }
    }

    /// The first of `regions` where `digits` are a short code (pattern and length).
    func _firstShortCodeRegion(_ regions: UnsafeBufferPointer<UInt16>, _ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        for region in regions where region != _ShortNumberTable.none {
            let r = Int(region)
            if _ShortNumberTable.matches(_ShortNumberTable.label(r, digits), _ShortNumberBits.shortCode, r, digits.count) { return r }
        }
        return nil
    }

    @inline(__always)
    func _isValidShort(_ r: Int, _ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        let label = _ShortNumberTable.label(r, digits)
        return _ShortNumberTable.matches(label, _ShortNumberBits.general, r, digits.count)
            && _ShortNumberTable.matches(label, _ShortNumberBits.shortCode, r, digits.count)
    }

    func _cost(_ r: Int, _ digits: UnsafeBufferPointer<UInt8>) -> ShortNumberCost {
        let n = digits.count
        guard _ShortNumberTable.lengthAllowed(r, _ShortNumberBits.general, n) else { return .unknownCost }
        let label = _ShortNumberTable.label(r, digits)
        if _ShortNumberTable.matches(label, _ShortNumberBits.premiumRate, r, n) { return .premiumRate }
        if _ShortNumberTable.matches(label, _ShortNumberBits.standardRate, r, n) { return .standardRate }
        if _ShortNumberTable.matches(label, _ShortNumberBits.tollFree, r, n) { return .tollFree }
        // An emergency number is toll free whatever its length (no length test, as upstream).
        if label & _ShortNumberBits.emergency != 0 { return .tollFree }
        return .unknownCost
    }

    /// The emergency test over text: ``_matchesEmergency(utf8:_:allowingPrefix:)`` over its UTF-8.
    func _matchesEmergency(_ text: String, _ region: RegionCode, allowingPrefix: Bool) -> Bool {
        _withUTF8(text) { _matchesEmergency(utf8: $0, region, allowingPrefix: allowingPrefix) }
    }

    /// The emergency test over UTF-8 input (an ill-formed sequence reads as U+FFFD, neither a
    /// digit nor a sign), in one pass: from the first digit or plus sign (a plus refuses), up to
    /// a second number ("/x", "\\ x"), the digits of any script walked through the region's DFA;
    /// a dead state ends the walk. No buffer, no allocation.
    func _matchesEmergency(utf8 bytes: UnsafeBufferPointer<UInt8>, _ region: RegionCode, allowingPrefix: Bool) -> Bool {
        guard let r = _ShortNumberTable.region(region) else { return false }
        let words = smskit_short_words()!
        let offset = Int(smskit_short_regions()[r].dfa)
        let rows = words + (offset &+ 1)
        var state = Int(words[offset])
        var i = 0
        var started = false
        while i < bytes.count {
            let (c, length) = _scalar(bytes, at: i)
            if !started {
                if _Chars.isPlus(c) { return false }
                started = _UnicodeClasses.isDecimal(c)
            }
            if started {
                if let digit = _UnicodeClasses.digitValue(c) {
                    state = Int(rows[state &* 11 &+ Int(digit)])
                    if state == 0 { return false }
                } else if (c == "/" || c == "\\") && _secondNumberStarts(bytes, after: i) {
                    break
                }
            }
            i &+= length
        }
        // Brazil, Chile and Nicaragua take no digits after an emergency number (libphonenumber).
        let exact = region.letterIndex.map { $0 == 1 * 26 + 17 || $0 == 2 * 26 + 11 || $0 == 13 * 26 + 8 } ?? false
        let bit = allowingPrefix && !exact ? _ShortNumberBits.emergencyPrefix : _ShortNumberBits.emergency
        return rows[state &* 11 &+ 10] & bit != 0
    }

    /// Whether spaces and then "x" (lower case, as libphonenumber's pattern) follow the slash
    /// or backslash at byte `slash`: a second number starts there.
    private func _secondNumberStarts(_ bytes: UnsafeBufferPointer<UInt8>, after slash: Int) -> Bool {
        var j = slash &+ 1
        while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j &+= 1 }
        return j < bytes.count && bytes[j] == UInt8(ascii: "x")
    }
}
