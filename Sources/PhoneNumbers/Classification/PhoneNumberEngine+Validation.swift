extension PhoneNumberEngine {
    /// Checks the length of a number against its country's possible lengths: libphonenumber's
    /// cheap first tier (`isPossibleNumberWithReason`).
    ///
    /// ```swift
    /// engine.possibility(of: try engine.parse(e164: "+1650253000"))   // .tooShort
    /// ```
    /// - Complexity: O(1) after formatting the national number's digits; no allocation.
    public func possibility(of number: PhoneNumber) -> PhoneNumberPossibility {
        guard let index = tables.mainRegion(forCallingCode: number.countryCode) else { return .invalidCountryCode }
        let length = number.withNationalSignificantNumber { $0.count }
        return _possibility(length: length, region: tables.core[index])
    }

    /// Whether the number matches its region's patterns (libphonenumber's `isValidNumber`).
    ///
    /// - Complexity: O(n) in the number's digits: one DFA pass per candidate region.
    public func isValid(_ number: PhoneNumber) -> Bool {
        type(of: number) != .unknown
    }

    /// Whether the number is valid for the given region (libphonenumber's `isValidNumberForRegion`):
    /// +1 416 ... is valid for "CA" but not for "US".
    ///
    /// Pass ``RegionCode/nonGeographic`` for the +800-style entities.
    public func isValid(_ number: PhoneNumber, for region: RegionCode) -> Bool {
        type(of: number, in: region) != .unknown
    }

    /// The number's type under a given region's patterns: the example toll-free number of
    /// Antigua (+1 800 ...) is a toll-free number in "AG" although its region is "US".
    ///
    /// Returns ``PhoneNumberType/unknown`` when the region's calling code is not the number's.
    public func type(of number: PhoneNumber, in region: RegionCode) -> PhoneNumberType {
        let index: Int?
        if region == .nonGeographic {
            index = tables.mainRegion(forCallingCode: number.countryCode).flatMap {
                store.regions[$0].code == "001" ? $0 : nil
            }
        } else {
            index = tables.regionIndex(region).flatMap {
                Int(store.regions[$0].countryCode) == number.countryCode ? $0 : nil
            }
        }
        guard let index else { return .unknown }
        return number.withNationalSignificantNumber { _type($0, tables.core[index]) }
    }

    /// The number's type in its region, ``PhoneNumberType/unknown`` when it is not valid.
    public func type(of number: PhoneNumber) -> PhoneNumberType {
        _classify(number)?.type ?? .unknown
    }

    /// The region a number belongs to: "US", "CA", ..., "001" for a non-geographic entity, or nil
    /// when the calling code is unknown or no region sharing it claims the number (libphonenumber's
    /// `getRegionCodeForNumber`).
    public func region(of number: PhoneNumber) -> RegionCode? {
        let countryCode = number.countryCode
        return number.withNationalSignificantNumber { _regionIndex(countryCode, $0) }.map { tables.regionCodes[$0] }
    }

    /// Validity, type and region in one pass (what a batch validator wants).
    public func classify(_ number: PhoneNumber) -> (region: RegionCode?, type: PhoneNumberType) {
        guard let (index, type) = _classify(number) else { return (nil, .unknown) }
        return (tables.regionCodes[index], type)
    }

    // MARK: - Internals shared with parsing

    /// libphonenumber's `getRegionCodeForNumberFromRegionList`: the first region sharing the
    /// calling code whose leading digits match or, for regions without leading digits, whose
    /// patterns give the number a type.
    @inline(__always)
    func _regionIndex(_ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard countryCode > 0, countryCode < 1000 else { return nil }
        let count = Int(tables.callingCodeCount[countryCode])
        let start = Int(tables.callingCodeStart[countryCode])
        if count <= 1 { return count == 0 ? nil : Int(tables.regionLists[start]) }
        var candidates = _leadingCandidates(countryCode, digits, count: count)
        while candidates != 0 {
            let index = Int(tables.regionLists[start &+ candidates.trailingZeroBitCount])
            candidates &= candidates &- 1
            let record = tables.core[index]
            if record.leadingDigits >= 0 {
                if _DFA.prefixMatches(tables.words, record.leadingDigits, digits) { return index }
            } else if _type(digits, record) != .unknown {
                return index
            }
        }
        return nil
    }

    /// ``_classify(_:_:)`` of a number: for a calling code of one region, over the digits as the
    /// number keeps them; otherwise over them as ASCII digits (the leading-digits DFAs read bytes).
    @inline(__always)
    func _classify(_ number: PhoneNumber) -> (index: Int, type: PhoneNumberType)? {
        // The closure captures the calling code, not the number: capturing the number copies it
        // (its extension retained and released).
        let countryCode = number.countryCode
        if let index = _onlyRegion(countryCode, number._digits) {
            return (index, _type(number._digits, tables.core[index]))
        }
        return number.withNationalSignificantNumber { _classify(countryCode, $0) }
    }

    /// The number's region (as ``_regionIndex(_:_:)``) and its type there, with one DFA pass over
    /// the digits per region tried: a region chosen because its patterns give the number a type
    /// (the US among the +1 regions, GB among +44, ...) is not walked a second time.
    @inline(__always)
    func _classify(_ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>) -> (index: Int, type: PhoneNumberType)? {
        guard countryCode > 0, countryCode < 1000 else { return nil }
        let count = Int(tables.callingCodeCount[countryCode])
        let start = Int(tables.callingCodeStart[countryCode])
        if count <= 1 {
            guard count == 1 else { return nil }
            let index = Int(tables.regionLists[start])
            return (index, _type(digits, tables.core[index]))
        }
        var candidates = _leadingCandidates(countryCode, digits, count: count)
        while candidates != 0 {
            let index = Int(tables.regionLists[start &+ candidates.trailingZeroBitCount])
            candidates &= candidates &- 1
            let record = tables.core[index]
            if record.leadingDigits >= 0 {
                if _DFA.prefixMatches(tables.words, record.leadingDigits, digits) {
                    return (index, _type(digits, record))
                }
            } else {
                let type = _type(digits, record)
                if type != .unknown { return (index, type) }
            }
        }
        return nil
    }

    /// The regions of a shared calling code's list of `count` (bit k for the k-th) that may claim
    /// a national number starting with `digits`' first three: those whose leading digits may match
    /// and those without leading digits. The loops over them visit only these bits, in list order.
    @inline(__always)
    func _leadingCandidates(_ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>, count: Int) -> UInt32 {
        let all = count >= 32 ? ~0 : (1 &<< UInt32(count)) &- 1
        let offset = Int(tables.leadingFilterStart[countryCode])
        guard offset >= 0, digits.count >= 3 else { return all }
        let p = _Store.threeDigits(digits)
        guard p < 1000 else { return all }
        return tables.leadingFilter[offset &+ p] & all
    }

    /// libphonenumber's `getNumberTypeHelper` over one DFA pass: the label carries the pattern
    /// and the length tests of every description (`_TypeBits`). A length the general description
    /// does not admit ends it before the walk, from the record.
    @inline(__always)
    func _type(_ digits: UnsafeBufferPointer<UInt8>, _ record: _RegionCore) -> PhoneNumberType {
        guard _isPossible(length: digits.count, record) else { return .unknown }
        return _type(label: _typeDFA(record).label(digits), record)
    }

    /// ``_type(_:_:)-(UnsafeBufferPointer<UInt8>,_)`` over the digits as a `PhoneNumber` keeps
    /// them (1 to 16).
    @inline(__always)
    func _type(_ digits: _NationalDigits, _ record: _RegionCore) -> PhoneNumberType {
        guard _isPossible(length: digits.count, record) else { return .unknown }
        return _type(label: _typeDFA(record).label(digits), record)
    }

    /// Whether the general description's possible lengths admit `length`.
    @inline(__always)
    func _isPossible(length: Int, _ record: _RegionCore) -> Bool {
        length < 32 && record.possibleLengths &>> UInt32(length) & 1 != 0
    }

    /// The type a label of the region's type DFA gives: one table load (`_Tables.typeByLabel`).
    @inline(__always)
    func _type(label bits: UInt16, _ record: _RegionCore) -> PhoneNumberType {
        tables.typeByLabel[_Store.typeKey(bits, sameMobileAndFixedLine: record.sameMobileAndFixedLinePattern)]
    }

    /// The one region of a calling code no other region shares (four numbers in five), when the
    /// number's digits are at hand (1 to 16 of them): what the type walk over `_NationalDigits`
    /// needs. Nil otherwise.
    @inline(__always)
    func _onlyRegion(_ countryCode: Int, _ digits: _NationalDigits) -> Int? {
        guard countryCode > 0, countryCode < 1000, tables.callingCodeCount[countryCode] == 1,
              digits.count != 0 else { return nil }
        return Int(tables.regionLists[Int(tables.callingCodeStart[countryCode])])
    }

    /// The region's type DFA in the store's tables.
    @inline(__always)
    func _typeDFA(_ record: _RegionCore) -> _TypeDFA {
        _TypeDFA(rows: tables.typeRows + Int(record.typeRows), labels: tables.words + (Int(record.typeDFA) &+ 1),
                 tails: tables.words + Int(record.typeTails),
                 start: Int(record.typeStart), firstTail: Int(record.typeFirstTail))
    }

    /// The type a DFA label gives, by libphonenumber's order of tests (`getNumberTypeHelper`):
    /// what `_Tables.typeByLabel` tabulates.
    static func _typeOfLabel(_ bits: UInt16, sameMobileAndFixedLine: Bool) -> PhoneNumberType {
        if bits & _TypeBits.general == 0 { return .unknown }
        if bits & _TypeBits.premiumRate != 0 { return .premiumRate }
        if bits & _TypeBits.tollFree != 0 { return .tollFree }
        if bits & _TypeBits.sharedCost != 0 { return .sharedCost }
        if bits & _TypeBits.voip != 0 { return .voip }
        if bits & _TypeBits.personalNumber != 0 { return .personalNumber }
        if bits & _TypeBits.pager != 0 { return .pager }
        if bits & _TypeBits.uan != 0 { return .uan }
        if bits & _TypeBits.voicemail != 0 { return .voicemail }
        if bits & _TypeBits.fixedLine != 0 {
            if sameMobileAndFixedLine || bits & _TypeBits.mobile != 0 { return .fixedLineOrMobile }
            return .fixedLine
        }
        if !sameMobileAndFixedLine, bits & _TypeBits.mobile != 0 { return .mobile }
        return .unknown
    }

    /// libphonenumber's `testNumberLength` for the general description.
    @inline(__always)
    func _possibility(length: Int, region record: _RegionCore) -> PhoneNumberPossibility {
        if record.hasNoPossibleLength { return .invalidLength }
        let lengths = record.possibleLengths
        if length < 32, record.localOnlyLengths & (1 << UInt32(length)) != 0 { return .isPossibleLocalOnly }
        let minimum = lengths.trailingZeroBitCount
        let maximum = 31 - lengths.leadingZeroBitCount
        if length == minimum { return .isPossible }
        if length < minimum { return .tooShort }
        if length > maximum { return .tooLong }
        return lengths & (1 << UInt32(length)) != 0 ? .isPossible : .invalidLength
    }

    /// Whether the general description's pattern matches (libphonenumber's `matchNationalNumber`,
    /// pattern only, no length check).
    @inline(__always)
    func _matchesGeneralPattern(_ digits: UnsafeBufferPointer<UInt8>, _ record: _RegionCore) -> Bool {
        _typeDFA(record).label(digits) & _TypeBits.generalPattern != 0
    }
}
